/**
 * The variable every command's processes carry (a fresh random value per command): the kill
 * inside the container finds them by it, wherever they moved (`setsid`, a double fork).
 */
export const PROCESS_MARK_VARIABLE = 'TOOLPLANE_PROCESS_MARK';

/**
 * Kills the orphans that carry no command's mark: the children of the container's init other
 * than its first (the container's own long `sleep`, which init started before anything else;
 * the kernel lists a process's children oldest first, adopted orphans last). A process that
 * cleared its environment (`env -i`) and was left behind by its command is adopted by init and
 * found here; a marked orphan belongs to a command that may still run, and is left to it. Uses
 * only shell built-ins. Where the kernel does not list children, it does nothing.
 */
const KILL_UNMARKED_ORPHANS =
  'c=; read -r c < /proc/1/task/1/children 2>/dev/null; set -- $c; [ $# -gt 0 ] && shift; ' +
  // A zombie (state Z) is dead already: init reaps it.
  'for p in "$@"; do st=; read -r st < /proc/$p/stat 2>/dev/null; case "$st" in *") Z "*|"") continue ;; esac; ' +
  `case "$(cat /proc/$p/environ 2>/dev/null)" in *${PROCESS_MARK_VARIABLE}=*) ;; ` +
  '*) kill -9 "$p" 2>/dev/null && k=1 ;; esac; done; ';

/**
 * Kills the processes whose environment holds `$m`, except the shell running it, and the
 * unmarked orphans, pass after pass until none is left (or 20 passes, 50 ms apart: then it
 * exits 1 and the container is discarded). One `grep -l` a pass (not `-F`: busybox stops a
 * fixed string at the first NUL of `environ`), so it needs few processes of its own under a
 * pids limit.
 */
const KILL_MARKED =
  'i=0; while [ $i -lt 20 ]; do k=0; ' +
  // The list ends with "end" only when the subshell could fork: under a full pids limit an
  // empty answer would otherwise read as "nothing left to kill".
  'l=$(grep -l "$m" /proc/[0-9]*/environ 2>/dev/null; echo end); ' +
  'case "$l" in *end) ;; *) k=1 ;; esac; ' +
  'for f in $l; do [ "$f" = end ] && continue; ' +
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not JavaScript
  'p=${f#/proc/}; p=${p%/environ}; [ "$p" = "$$" ] && continue; kill -9 "$p" 2>/dev/null && k=1; done; ' +
  KILL_UNMARKED_ORPHANS +
  // A killed process can stay listed while it exits: give it a moment before the next pass.
  '[ $k = 0 ] && break; i=$((i+1)); sleep 0.05 2>/dev/null; done; [ $i -lt 20 ]';

/**
 * Runs the command (`$1`) with `/bin/sh -c`, then kills what it left running (background
 * jobs, daemons), as the host executor does, and exits with the command's status. Doing it in
 * the same exec costs no extra round trip to the engine.
 */
export const RUN_COMMAND = `/bin/sh -c "$1"; s=$?; m="${PROCESS_MARK_VARIABLE}=$${PROCESS_MARK_VARIABLE}"; unset ${PROCESS_MARK_VARIABLE}; ${KILL_MARKED}; exit $s`;

/** Kills the processes of the command whose mark entry is `$1` (run as its own exec). */
export const KILL_COMMAND = `m="$1"; ${KILL_MARKED}`;
