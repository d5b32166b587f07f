// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the corpus is shell text, not templates
import { describe, it } from 'vitest';
import { type Case, deviceWritePolicy, OWNER_AND_MOVE_COMMANDS } from '../helpers.js';

/**
 * The system's own directories: recursive mode or owner changes over them (`chmod -R 777 /`) and
 * moving one away (`mv /usr x`), also when named by a pattern, a variable or a path relative to a
 * directory the line changed to. Each verdict matches what bash 5.2 does with the line.
 *
 * Each line is judged in bypass mode under generous allow rules, where anything that is neither
 * denied nor asked runs; near misses stay allowed.
 */
const roots = deviceWritePolicy('system-directories', ['chmod *', 'chown *', 'chgrp *', 'mv *']);
const more = deviceWritePolicy('system-directories-more', OWNER_AND_MOVE_COMMANDS);

describe('recursive changes over the system and moving it away', () => {
  const ROOTS = /^destructive-file-operation: (ch(mod|own|grp) -R over|mv of) \//;
  it.each<Case>([
    ['chmod -R 777 /', 'deny', ROOTS],
    ['chmod --recursive a-x /usr/', 'deny', ROOTS],
    ['chown -R nobody:nogroup /', 'deny', ROOTS],
    ['chgrp -R users /etc', 'deny', ROOTS],
    ['sudo chown -hR user //var', 'deny', ROOTS],
    ['mv /usr /usr.old', 'deny', ROOTS],
    ['mv -t /tmp /etc', 'deny', ROOTS],
    ['mv / /tmp/root', 'deny', ROOTS],
    // a pattern gives every root it matches
    ['chmod -R 777 /*', 'deny', ROOTS],
    ['chown -R user /u?r', 'deny', ROOTS],
    ['mv /[eu]* /tmp/old', 'deny', ROOTS],
  ])('%j is %s', async (...entry) => more.expectVerdict(entry));

  it.each([
    'chmod -R u+w build',
    'chmod 755 /usr/local/bin/tool',
    'chown -R user /home/user/project',
    'chmod -R go-w /usr/local/share/app',
    'mv -t /usr x',
    'chmod -R 644 /home/*/notes',
    'mv build.log /var/tmp/build.log',
    'mv "$SRC" "$DST"',
  ])('%j stays allowed', more.allowedInDefault);
});

describe('relative names in the system directories', () => {
  const ROOTS = /^destructive-file-operation: (ch(mod|own|grp) -R over|mv of) \//;
  // `cd / && chmod -R 777 .` is `chmod -R 777 /`: operands are placed in the working directory
  // the line leads to, and read with the values of the variables set before.
  it.each<Case>([
    ['cd / && chmod -R 777 .', 'deny', ROOTS],
    ['cd /; mv usr x', 'deny', ROOTS],
    ['cd /etc && chown -R nobody .', 'deny', ROOTS],
    ['pushd /; chmod -R 777 *', 'deny', ROOTS],
    ['cd /; chgrp -R staff etc', 'deny', ROOTS],
    ['cd /usr && chmod -R 777 ..', 'deny', ROOTS],
    ['cd /usr; mv -t /tmp ../var', 'deny', ROOTS],
    ['D=/usr; mv "$D" x', 'deny', ROOTS],
    ['D=/; chmod -R 777 $D', 'deny', ROOTS],
    ['cd /; D=usr; mv $D x', 'deny', ROOTS],
    ['cd /tmp || cd /; chmod -R 777 .', 'ask', /some expansions of its words match: chmod -R over \//],
  ])('%j is %s', async (...entry) => roots.expectVerdict(entry));

  it.each([
    'cd /tmp; chmod -R 777 .',
    'cd /; chown -R usr /srv/app',
    'cd /; chmod -R 755 srv/app',
    'cd /usr; mv local/x local/y',
    'D=/srv; chmod -R 777 "$D"',
    'chmod -R 777 .',
  ])('%j stays allowed', roots.allowedInDefault);
});
