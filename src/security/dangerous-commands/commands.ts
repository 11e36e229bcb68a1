/**
 * One simple command, checked by its name: wrappers that carry code in a string (`env -S`, `su -c`,
 * `watch`, `ssh`), other wrappers peeled, then the rule for each command: the short ones inline,
 * `find -exec`, `kill` and `git` below, files in commands-files.ts, code in commands-code.ts.
 */
import type { Command } from 'unbash';
import {
  analyzeShell,
  checkCodeArgs,
  checkRunsDownloaded,
  checkScriptOperand,
  checkStdinScript,
  DOWNLOADERS,
  INTERPRETERS,
  recordDownload,
  SHELLS,
} from './commands-code.js';
import { checkChmod, checkCopyMove, checkInPlaceEdit, checkRm, checkRmOperand, checkWriteTarget, optionOutputs } from './commands-files.js';
import { analyzePayload, argsText, type Ctx } from './context.js';
import { getopt } from './options.js';
import { basename, classifyPath } from './paths.js';
import { effectiveName, peelWrapper } from './wrappers.js';
import type { Arg } from './words.js';

const PRIVILEGED = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0', 'sudoedit']);
const DISK_TOOLS = new Set(['mke2fs', 'mkswap', 'fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'parted', 'wipefs', 'blkdiscard']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const SYSTEMCTL_POWER = new Set([
  'poweroff',
  'reboot',
  'halt',
  'kexec',
  'suspend',
  'hibernate',
  'hybrid-sleep',
  'suspend-then-hibernate',
  'soft-reboot',
]);

/**
 * Checks one simple command given as arguments. `cmd` is the syntax node the arguments come from
 * (for its here-documents); it is undefined for argument lists taken out of another command
 * (`find -exec …`).
 */
export function analyzeArgv(args: Arg[], ctx: Ctx, cmd: Command | undefined, hops = 0): void {
  const head = args[0];
  if (!head) return;
  const out = ctx.shared.out;
  const text = argsText(ctx, args);
  if (hops > 32) {
    out.add('unanalyzable', text);
    return;
  }
  if (!head.literal) {
    out.add('dynamic-command', text);
    // The name may expand to nothing (`$(true) rm -rf /`): check the rest as a command too.
    analyzeArgv(args.slice(1), ctx, cmd, hops + 1);
    return;
  }
  const name = basename(head.value);
  if (ctx.depth === 0 && /^\^.*\^/.test(head.value)) out.add('history-expansion', text);
  const rest = args.slice(1);
  if (head.value.includes('/')) checkRunsDownloaded(head, ctx, text);
  if (DOWNLOADERS.has(name)) {
    recordDownload(name, rest, cmd, ctx);
    for (const a of optionOutputs(name, rest)) checkWriteTarget(a, ctx, text);
  }
  if (INTERPRETERS.test(name)) {
    const script = rest.find((a) => !a.value.startsWith('-'));
    if (script) checkRunsDownloaded(script, ctx, text);
  }

  if (PRIVILEGED.has(name)) out.add('privilege-escalation', text);

  // Wrappers whose payload is a string of shell code.
  if (name === 'env') {
    const o = getopt(rest, {
      shortArg: 'uCS',
      longArg: ['unset', 'chdir', 'split-string'],
      long: ['ignore-environment', 'null', 'unset', 'chdir', 'split-string', 'debug', 'help', 'version'],
      stopAtOperand: true,
    });
    const sIndex = rest.findIndex(
      (a) => a.value === '-S' || a.value.startsWith('-S') || a.value.startsWith('--split-string') || /^-[^-]*S/.test(a.value),
    );
    if ((o.short.has('S') || o.long.has('split-string')) && sIndex >= 0) {
      const s = rest[sIndex] as Arg;
      const inline = s.value.startsWith('--split-string') ? s.value.slice('--split-string='.length) : s.value.replace(/^-[^S]*S/, '');
      const payloadParts = [inline, ...rest.slice(sIndex + 1).map((a) => a.value)].filter((p) => p !== '');
      checkCodeArgs(rest.slice(sIndex), ctx, text);
      analyzePayload(payloadParts.join(' '), ctx);
      return;
    }
  }
  if (name === 'su' || name === 'runuser') {
    const o = getopt(rest, {
      shortArg: 'cgGswu',
      longArg: ['command', 'group', 'supp-group', 'shell', 'whitelist-environment', 'user', 'session-command'],
    });
    const idx = rest.findIndex((a) => /^-[a-zA-Z]*c$/.test(a.value) || a.value === '--command' || a.value === '--session-command');
    const inlineLong = rest.find((a) => a.value.startsWith('--command=') || a.value.startsWith('--session-command='));
    const payload = inlineLong ? inlineLong.value.slice(inlineLong.value.indexOf('=') + 1) : idx >= 0 ? rest[idx + 1]?.value : undefined;
    if ((o.short.has('c') || o.long.has('command') || o.long.has('session-command')) && payload !== undefined) {
      checkCodeArgs(rest, ctx, text);
      analyzePayload(payload, ctx);
    }
    return;
  }
  if (name === 'watch') {
    const o = getopt(rest, { shortArg: 'nq', longArg: ['interval', 'equexit'], stopAtOperand: true });
    const cmdArgs = rest.slice(o.restIndex);
    if (!cmdArgs.length) return;
    if (o.short.has('x') || o.long.has('exec')) analyzeArgv(cmdArgs, ctx, undefined, hops + 1);
    else {
      checkCodeArgs(cmdArgs, ctx, text);
      analyzePayload(cmdArgs.map((a) => a.value).join(' '), ctx);
    }
    return;
  }
  if (name === 'ssh') {
    const o = getopt(rest, { shortArg: 'BbcDEeFIiJLlmOoPpQRSWw', stopAtOperand: true });
    const remote = rest.slice(o.restIndex + 1); // after HOST
    if (remote.length) {
      checkCodeArgs(remote, ctx, text);
      analyzePayload(remote.map((a) => a.value).join(' '), ctx);
    }
    return;
  }

  const peeled = peelWrapper(name, args);
  if (peeled.kind === 'rest') {
    if ((name === 'sudo' || name === 'doas') && !peeled.rest.length) return; // `sudo -i`, `sudo -s`: already reported
    analyzeArgv(peeled.rest, ctx, cmd, hops + 1);
    return;
  }
  if (peeled.kind === 'stop') return;

  if (SHELLS.has(name)) return analyzeShell(rest, ctx, cmd, text);

  switch (name) {
    case 'eval': {
      checkCodeArgs(rest, ctx, text);
      analyzePayload(rest.map((a) => a.value).join(' '), ctx);
      return;
    }
    case 'source':
    case '.': {
      const file = rest[0];
      if (file) checkScriptOperand(file, ctx, text);
      if (file) checkRunsDownloaded(file, ctx, text);
      if (file && /^\/dev\/(stdin|fd\/0)$/.test(file.value)) checkStdinScript(cmd, ctx, text);
      return;
    }
    case 'alias': {
      for (const a of rest) {
        const eq = a.value.indexOf('=');
        if (eq > 0) analyzePayload(a.value.slice(eq + 1), ctx);
      }
      return;
    }
    case 'trap': {
      const o = getopt(rest, { stopAtOperand: true });
      const action = o.operands[0];
      if (action && action.value !== '-' && o.operands.length > 1) analyzePayload(action.value, ctx);
      return;
    }
    case 'cd':
    case 'pushd': {
      const o = getopt(rest, { stopAtOperand: true });
      const target = o.operands[0];
      if (!target || target.value === '-') ctx.shared.cwdLeft = true;
      else {
        const c = classifyPath(target, ctx);
        if (c !== 'inside' && c !== 'scratch') ctx.shared.cwdLeft = true;
      }
      return;
    }
    case 'rm':
      return checkRm(rest, ctx, text);
    case 'unlink':
      for (const a of rest) checkRmOperand(a, ctx, text);
      return;
    case 'find':
      return checkFind(rest, ctx, text, hops);
    case 'fd':
    case 'fdfind': {
      const i = rest.findIndex((a) => /^(-x|-X|--exec|--exec-batch)$/.test(a.value));
      if (i < 0) return;
      let sub = rest.slice(i + 1);
      const end = sub.findIndex((a) => a.value === ';');
      if (end >= 0) sub = sub.slice(0, end);
      const subName = effectiveName(sub);
      if (subName === 'rm' || subName === 'unlink' || subName === 'shred') out.add('find-delete', text);
      analyzeArgv(sub, ctx, undefined, hops + 1);
      return;
    }
    case 'parallel': {
      // GNU parallel runs its command through a shell: `parallel [options] CMD ::: ARGS`.
      const end = rest.findIndex((a) => a.value === ':::' || a.value === '::::' || a.value === ':::+');
      const head = end >= 0 ? rest.slice(0, end) : rest;
      let start = 0;
      while (start < head.length && (head[start] as Arg).value.startsWith('-')) {
        start += /^(-j|-P|-S|-n|-N|-L|-l|-I|-E|-d|-a|--jobs|--sshlogin|--max-args|--delimiter|--arg-file)$/.test((head[start] as Arg).value)
          ? 2
          : 1;
      }
      const cmdArgs = head.slice(start);
      if (cmdArgs.length) {
        checkCodeArgs(cmdArgs, ctx, text);
        analyzePayload(cmdArgs.map((a) => a.value).join(' '), ctx);
      }
      return;
    }
    case 'chmod':
      return checkChmod(rest, ctx, text);
    case 'chown':
    case 'chgrp': {
      const o = getopt(rest, {
        long: [
          'recursive',
          'reference',
          'from',
          'changes',
          'silent',
          'quiet',
          'verbose',
          'dereference',
          'no-dereference',
          'preserve-root',
          'no-preserve-root',
          'help',
          'version',
        ],
      });
      if (o.short.has('R') || o.long.has('recursive')) ctx.shared.out.add('permissions-recursive', text);
      return;
    }
    case 'dd': {
      for (const a of rest) {
        if (!a.value.startsWith('of=')) continue;
        out.add('dd-write', text);
        const target: Arg = { ...a, value: a.value.slice(3) };
        if (classifyPath(target, ctx) === 'device') out.add('write-device', text);
      }
      return;
    }
    case 'diskutil':
      if (rest.some((a) => /^(erase|zero|randomdisk|partitiondisk|secureerase|reformat)/i.test(a.value))) out.add('disk-format', text);
      return;
    case 'init':
    case 'telinit':
      if (rest.some((a) => a.value === '0' || a.value === '6')) out.add('power', text);
      return;
    case 'systemctl':
      if (rest.some((a) => SYSTEMCTL_POWER.has(a.value))) out.add('power', text);
      return;
    case 'kill':
      return checkKill(rest, ctx, text);
    case 'killall':
    case 'killall5':
    case 'pkill':
      out.add('kill-all', text);
      return;
    case 'git':
      return checkGit(rest, ctx, text);
    case 'truncate':
    case 'shred': {
      const o = getopt(
        rest,
        name === 'truncate'
          ? { shortArg: 'sr', longArg: ['size', 'reference'] }
          : { shortArg: 'ns', longArg: ['iterations', 'size', 'random-source', 'remove'] },
      );
      if (o.operands.length) out.add('truncate-shred', text);
      return;
    }
    case 'sed':
    case 'perl':
      return checkInPlaceEdit(name, rest, ctx, text);
    case 'sort':
      for (const a of optionOutputs(name, rest)) checkWriteTarget(a, ctx, text);
      return;
    case 'tee': {
      const o = getopt(rest, { long: ['append', 'ignore-interrupts', 'output-error'] });
      for (const a of o.operands) checkWriteTarget(a, ctx, text);
      return;
    }
    case 'mv':
    case 'cp':
    case 'ln':
    case 'install':
    case 'rsync':
      return checkCopyMove(name, rest, ctx, text);
    case 'history': {
      const o = getopt(rest);
      if (o.short.has('c')) out.add('history-clear', text);
      return;
    }
    case 'unset':
      if (rest.some((a) => a.value === 'HISTFILE')) out.add('history-clear', text);
      return;
    case 'set':
      for (let i = 0; i + 1 < rest.length; i++) {
        if ((rest[i] as Arg).value === '+o' && (rest[i + 1] as Arg).value === 'history') out.add('history-clear', text);
      }
      return;
    case 'crontab': {
      const o = getopt(rest, { shortArg: 'u' });
      if (o.short.has('r')) out.add('crontab-remove', text);
      return;
    }
    default:
      break;
  }
  if (name.startsWith('mkfs') || DISK_TOOLS.has(name)) out.add('disk-format', text);
  else if (POWER.has(name)) out.add('power', text);
}

function checkFind(rest: Arg[], ctx: Ctx, text: string, hops: number): void {
  const out = ctx.shared.out;
  for (let i = 0; i < rest.length; i++) {
    const v = (rest[i] as Arg).value;
    if (v === '-delete') out.add('find-delete', text);
    if (v === '-exec' || v === '-execdir' || v === '-ok' || v === '-okdir') {
      let j = i + 1;
      while (j < rest.length && (rest[j] as Arg).value !== ';' && (rest[j] as Arg).value !== '+') j++;
      const sub = rest.slice(i + 1, j);
      const subName = effectiveName(sub);
      if (subName === 'rm' || subName === 'unlink' || subName === 'shred' || subName === 'rmdir') out.add('find-delete', text);
      analyzeArgv(sub, ctx, undefined, hops + 1);
      i = j;
    }
  }
}

function checkKill(rest: Arg[], ctx: Ctx, text: string): void {
  let signalSeen = false;
  let endOfOptions = false;
  for (let i = 0; i < rest.length; i++) {
    const v = (rest[i] as Arg).value;
    if (!endOfOptions && v === '--') {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && (v === '-s' || v === '-n' || v === '--signal')) {
      signalSeen = true;
      i++;
      continue;
    }
    if (!endOfOptions && (v === '-l' || v === '-L' || v === '--list' || v === '--table')) return;
    if (!endOfOptions && !signalSeen && /^-\w+$/.test(v)) {
      signalSeen = true; // `-9`, `-KILL`, `-SIGKILL`
      continue;
    }
    if (v === '-1') ctx.shared.out.add('kill-all', text);
  }
}

const GIT_GLOBAL_ARG = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
  '--exec-path',
  '--list-cmds',
  '--attr-source',
]);

function checkGit(rest: Arg[], ctx: Ctx, text: string): void {
  const out = ctx.shared.out;
  let i = 0;
  while (i < rest.length) {
    const v = (rest[i] as Arg).value;
    if (!v.startsWith('-')) break;
    i += GIT_GLOBAL_ARG.has(v) ? 2 : 1;
  }
  const sub = rest[i]?.value;
  const args = rest.slice(i + 1);
  if (sub === 'clean') {
    const o = getopt(args, { shortArg: 'e', longArg: ['exclude'], long: ['force', 'dry-run', 'quiet', 'interactive', 'exclude'] });
    const force = o.short.has('f') || o.long.has('force');
    const dry = o.short.has('n') || o.long.has('dry-run');
    const wide = o.short.has('d') || o.short.has('x') || o.short.has('X');
    if (force && wide && !dry) out.add('git-clean-force', text);
  } else if (sub === 'reset') {
    const o = getopt(args, {
      long: [
        'hard',
        'soft',
        'mixed',
        'merge',
        'keep',
        'quiet',
        'no-quiet',
        'patch',
        'intent-to-add',
        'pathspec-from-file',
        'pathspec-file-nul',
        'recurse-submodules',
        'no-recurse-submodules',
        'refresh',
        'no-refresh',
      ],
    });
    if (o.long.has('hard')) out.add('git-discard-changes', text);
  } else if (sub === 'checkout' || sub === 'restore') {
    const o = getopt(args, {
      shortArg: sub === 'checkout' ? 'bBt' : 's',
      longArg: ['source', 'conflict', 'orphan', 'pathspec-from-file'],
      long: [
        'force',
        'staged',
        'worktree',
        'source',
        'ours',
        'theirs',
        'patch',
        'quiet',
        'progress',
        'merge',
        'conflict',
        'detach',
        'track',
        'no-track',
        'orphan',
        'ignore-other-worktrees',
        'overlay',
        'no-overlay',
        'pathspec-from-file',
        'pathspec-file-nul',
        'recurse-submodules',
        'ignore-skip-worktree-bits',
      ],
    });
    const whole = o.operands.some((a) => /^(\.|\.\/|:\/|:\/\.|\*|:\(top\)\.?)$/.test(a.value));
    const worktree = sub === 'checkout' || !(o.short.has('S') || o.long.has('staged')) || o.short.has('W') || o.long.has('worktree');
    if (
      (sub === 'checkout' && (o.short.has('f') || o.long.has('force'))) ||
      (whole && worktree && !o.short.has('p') && !o.long.has('patch'))
    )
      out.add('git-discard-changes', text);
  } else if (sub === 'stash' && args[0]?.value === 'clear') {
    out.add('git-discard-changes', text);
  } else if (sub === 'push') {
    const o = getopt(args, {
      shortArg: 'o',
      longArg: ['repo', 'push-option', 'receive-pack', 'exec'],
      long: [
        'all',
        'branches',
        'mirror',
        'delete',
        'tags',
        'follow-tags',
        'dry-run',
        'porcelain',
        'force',
        'force-with-lease',
        'force-if-includes',
        'repo',
        'set-upstream',
        'thin',
        'no-thin',
        'quiet',
        'verbose',
        'progress',
        'recurse-submodules',
        'verify',
        'no-verify',
        'atomic',
        'no-atomic',
        'push-option',
        'signed',
        'no-signed',
        'ipv4',
        'ipv6',
        'receive-pack',
        'exec',
        'prune',
        'no-force-with-lease',
        'no-force-if-includes',
      ],
    });
    const force =
      o.short.has('f') || o.long.has('force') || o.long.has('force-with-lease') || o.long.has('force-if-includes') || o.long.has('mirror');
    if (force || o.operands.some((a) => a.value.startsWith('+'))) out.add('git-push-force', text);
  }
}
