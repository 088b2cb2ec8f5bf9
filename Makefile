# memcgtop - a top-like console for Linux memory cgroups
VERSION  := 0.1
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
DATADIR  ?= $(PREFIX)/share/memcgtop

CC       ?= cc
PKGS     := ncursesw libcgroup libproc2
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wwrite-strings
CFLAGS   ?= -O2 -g
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CPPFLAGS += -Iinclude -DVERSION='"$(VERSION)"' -D_GNU_SOURCE
ALL_CFLAGS = $(WARN) $(CFLAGS) $(PKG_CFLAGS)

SRCS := $(wildcard src/*.c)
OBJS := $(SRCS:src/%.c=build/obj/%.o)
LIB_SRCS := $(filter-out src/main.c,$(SRCS))

all: memcgtop

memcgtop: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(PKG_LIBS) -lm

build/obj/%.o: src/%.c $(wildcard include/*.h) | build/obj
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

build/obj:
	mkdir -p $@

clean:
	rm -rf build memcgtop

.PHONY: all clean
