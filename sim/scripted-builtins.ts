/**
 * The scripted shell's text builtins (sim/scripted-shell.ts): echo and printf with bash's escapes.
 */

export interface Io {
  out: (s: string) => void;
}

/** Backslash escapes of `echo -e` and printf formats. `\c` ends the output (returned as stop). */
function unescape(s: string): { text: string; stop: boolean } {
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    v: '\v',
    '\\': '\\',
  };
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const next = s[i + 1]!;
    if (next === 'c') return { text: out, stop: true };
    const mapped = simple[next];
    if (mapped !== undefined) {
      out += mapped;
      i++;
      continue;
    }
    const octal = /^0[0-7]{0,3}/.exec(s.slice(i + 1));
    const hex = /^x([0-9A-Fa-f]{1,2})/.exec(s.slice(i + 1));
    if (octal) {
      out += String.fromCharCode(parseInt(octal[0].slice(1) || '0', 8));
      i += octal[0].length;
    } else if (hex) {
      out += String.fromCharCode(parseInt(hex[1]!, 16));
      i += hex[0].length;
    } else {
      out += c;
    }
  }
  return { text: out, stop: false };
}

export function echo(args: string[], io: Io): number {
  let newline = true;
  let escapes = false;
  while (args.length > 0 && /^-[neE]+$/.test(args[0]!)) {
    for (const flag of args.shift()!.slice(1)) {
      if (flag === 'n') newline = false;
      else escapes = flag === 'e';
    }
  }
  let text = args.join(' ');
  if (escapes) {
    const { text: unescaped, stop } = unescape(text);
    text = unescaped;
    if (stop) newline = false;
  }
  io.out(newline ? text + '\n' : text);
  return 0;
}

export function printf(args: string[], io: Io): number {
  const format = args.shift();
  if (format === undefined) {
    io.out('printf: usage: printf format [arguments]\n');
    return 2;
  }
  let status = 0;
  let out = '';
  // The format is reused while arguments remain, as in bash.
  do {
    let consumed = 0;
    const text = format.replace(/%([%sdi])/g, (_, conv: string) => {
      if (conv === '%') return '%';
      const arg = args.length > 0 ? args.shift()! : '';
      consumed++;
      if (conv === 's') return arg;
      if (arg === '') return '0';
      if (!/^[-+]?\d+$/.test(arg.trim())) {
        status = 1;
        io.out(`printf: ${arg}: invalid number\n`);
        return '0';
      }
      return String(parseInt(arg, 10));
    });
    const { text: unescaped, stop } = unescape(text);
    out += unescaped;
    if (stop || consumed === 0) break;
  } while (args.length > 0);
  io.out(out);
  return status;
}
