/*
 * An LD_PRELOAD shim for the fault tests (packages/server/test/faults): compiled by the test
 * with the system's cc, loaded into the service, it acts only on the embedded store's file
 * (a path ending in /store.lmdb), as told by the file SHIM_CONTROL names (read at each call):
 *   eio-sync     fdatasync/fsync fail with EIO        eio-write    pwrite/pwritev fail with EIO
 *   enospc-write pwrite/pwritev fail with ENOSPC      slow-sync    each sync takes 300 ms more
 *   die-write    SIGKILL itself before a data write   die-sync     SIGKILL before a sync
 *   die-synced   SIGKILL right after a sync succeeded die-meta     SIGKILL after a meta-page write
 * A die-* word kills at the first such point, or with @N (die-sync@3) at the Nth this process passes.
 * With SHIM_UNDO set, it keeps an undo log of every write not yet synced (offset, the bytes it
 * replaced, the file's size before it), emptied by each successful sync: replaying it backwards
 * after a SIGKILL leaves the file as a power cut at that moment would (only synced writes).
 * Writes through a descriptor opened O_DSYNC/O_SYNC (LMDB's meta pages) are durable at once.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int is_store(int fd) {
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = 0;
  size_t suffix = strlen("/store.lmdb");
  return (size_t)n >= suffix && strcmp(path + n - suffix, "/store.lmdb") == 0;
}

/* The control file's word `word`, whole (not a prefix of another): where its text goes on, or NULL. */
static const char *word_in(const char *text, const char *word) {
  size_t len = strlen(word);
  for (const char *p = strstr(text, word); p != NULL; p = strstr(p + 1, word)) {
    char next = p[len];
    if ((p == text || p[-1] == ' ' || p[-1] == '\n') && (next == 0 || next == ' ' || next == '\n' || next == '@'))
      return p + len;
  }
  return NULL;
}

static int read_control(char *text, size_t size) {
  const char *control = getenv("SHIM_CONTROL");
  if (control == NULL) return 0;
  int fd = open(control, O_RDONLY);
  if (fd < 0) return 0;
  ssize_t n = read(fd, text, size - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = 0;
  return 1;
}

static int told(const char *word) {
  char text[512] = {0};
  return read_control(text, sizeof text) && word_in(text, word) != NULL;
}

/* A point to die at: `word` (the first time) or `word@N` (the Nth time this process passes it). */
static int die_here(const char *word, int *passed) {
  char text[512] = {0};
  if (!read_control(text, sizeof text)) return 0;
  const char *rest = word_in(text, word);
  if (rest == NULL) return 0;
  *passed += 1;
  return *rest == '@' ? *passed == atoi(rest + 1) : 1;
}
static int passed_write, passed_sync, passed_synced, passed_meta;

static int synchronous(int fd) {
  int flags = fcntl(fd, F_GETFL);
  return flags >= 0 && (flags & (O_DSYNC | O_SYNC));
}

/* Appends one undo record: offset, length, the file's size before, then the bytes replaced. */
static void remember(int fd, off_t offset, size_t len) {
  const char *undo = getenv("SHIM_UNDO");
  if (undo == NULL || synchronous(fd)) return;
  struct stat st;
  if (fstat(fd, &st) != 0) return;
  uint64_t head[4] = {(uint64_t)offset, (uint64_t)len, (uint64_t)st.st_size, 0};
  char *old = malloc(len ? len : 1);
  ssize_t got = offset < st.st_size ? pread(fd, old, len, offset) : 0;
  head[3] = got > 0 ? (uint64_t)got : 0;
  int log = open(undo, O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (log >= 0) {
    if (write(log, head, sizeof head) < 0 || write(log, old, head[3]) < 0) abort();
    close(log);
  }
  free(old);
}

static void synced(void) {
  const char *undo = getenv("SHIM_UNDO");
  if (undo != NULL) truncate(undo, 0);
}

static ssize_t before_write(int fd, off_t offset, size_t len) {
  if (!is_store(fd)) return 0;
  if (told("eio-write")) { errno = EIO; return -1; }
  if (told("enospc-write")) { errno = ENOSPC; return -1; }
  if (!synchronous(fd) && die_here("die-write", &passed_write)) raise(SIGKILL);
  remember(fd, offset, len);
  return 0;
}

static void after_write(int fd) {
  if (synchronous(fd) && is_store(fd) && die_here("die-meta", &passed_meta)) raise(SIGKILL);
}

#define REAL(name) static __typeof__(name) *real; if (!real) real = dlsym(RTLD_NEXT, #name)

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t offset) {
  REAL(pwrite64);
  pthread_mutex_lock(&lock);
  ssize_t refused = before_write(fd, offset, len);
  ssize_t n = refused < 0 ? -1 : real(fd, buf, len, offset);
  int saved = errno;
  pthread_mutex_unlock(&lock);
  if (n >= 0) after_write(fd);
  errno = saved;
  return n;
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t offset) { return pwrite64(fd, buf, len, offset); }

ssize_t pwritev64(int fd, const struct iovec *iov, int count, off_t offset) {
  REAL(pwritev64);
  size_t len = 0;
  for (int i = 0; i < count; i++) len += iov[i].iov_len;
  pthread_mutex_lock(&lock);
  ssize_t refused = before_write(fd, offset, len);
  ssize_t n = refused < 0 ? -1 : real(fd, iov, count, offset);
  int saved = errno;
  pthread_mutex_unlock(&lock);
  if (n >= 0) after_write(fd);
  errno = saved;
  return n;
}

ssize_t pwritev(int fd, const struct iovec *iov, int count, off_t offset) { return pwritev64(fd, iov, count, offset); }

ssize_t write(int fd, const void *buf, size_t len) {
  REAL(write);
  if (fd <= 2 || !is_store(fd)) return real(fd, buf, len);
  pthread_mutex_lock(&lock);
  ssize_t refused = before_write(fd, lseek(fd, 0, SEEK_CUR), len);
  ssize_t n = refused < 0 ? -1 : real(fd, buf, len);
  int saved = errno;
  pthread_mutex_unlock(&lock);
  if (n >= 0) after_write(fd);
  errno = saved;
  return n;
}

static int sync_with(int (*real)(int), int fd) {
  if (!is_store(fd)) return real(fd);
  if (told("eio-sync")) { errno = EIO; return -1; }
  if (die_here("die-sync", &passed_sync)) raise(SIGKILL);
  if (told("slow-sync")) usleep(300 * 1000);
  pthread_mutex_lock(&lock);
  int r = real(fd);
  if (r == 0) synced();
  pthread_mutex_unlock(&lock);
  if (r == 0 && die_here("die-synced", &passed_synced)) raise(SIGKILL);
  return r;
}

int fdatasync(int fd) { REAL(fdatasync); return sync_with(real, fd); }
int fsync(int fd) { REAL(fsync); return sync_with(real, fd); }
