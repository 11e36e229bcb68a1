/**
 * The Node debug adapter through the Debug Adapter Protocol, as the debug family's client speaks it:
 * a real `node --inspect-brk` behind the relay (unsandboxed here), small programs written below, and
 * the lines each step must land on written by hand.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { ProtocolClient } from '@vscode/debugadapter-testsupport/lib/protocolClient.js';
import { writeRelay } from './relay.js';
import { NodeDebugSession } from './session.js';

const REPO = resolve(import.meta.dirname, '../../../..');
const WAIT_MS = 8000;

const LOOP_JS = `function add(a, b) {
  const sum = a + b;
  return sum;
}

const box = { label: 'box', items: [10, 20, 30] };
let total = 0;
for (let i = 0; i < 4; i++) {
  total = add(total, i);
  console.log(\`i=\${i} total=\${total}\`);
}
let answer = 0;
answer = total * 2;
console.log(\`answer=\${answer} \${box.label}\`);
process.exitCode = 3;
`;

const THROW_JS = `function depth(config) {
  return config.settings.depth;
}
console.log('before');
depth({});
console.log('never');
`;

const GEOMETRY_TS = `export interface Point {
  x: number;
  y: number;
}

export function norm(p: Point): number {
  const squared: number = p.x * p.x + p.y * p.y;
  return Math.sqrt(squared);
}
`;

const MAIN_TS = `import { norm, type Point } from './geometry';

const points: Point[] = [
  { x: 3, y: 4 },
  { x: 6, y: 8 },
];
for (const p of points) {
  const length: number = norm(p);
  console.log(\`norm=\${length}\`);
}
`;

let dir: string;
let relay: string;

beforeAll(() => {
  dir = mkdtempSync('/var/tmp/openspace-node-debug-');
  relay = writeRelay(dir);
  writeFileSync(join(dir, 'loop.js'), LOOP_JS);
  writeFileSync(join(dir, 'throw.js'), THROW_JS);
  // TypeScript twice: compiled by tsc with source maps, and run as it is through tsx.
  for (const project of ['compiled', 'tsx', 'bare']) {
    mkdirSync(join(dir, project, 'src'), { recursive: true });
    writeFileSync(join(dir, project, 'src', 'geometry.ts'), GEOMETRY_TS);
    writeFileSync(join(dir, project, 'src', 'main.ts'), MAIN_TS);
  }
  // Only console from the runtime, and run away from this repository's @types: tsc takes 1 s, not 10.
  writeFileSync(join(dir, 'compiled/src/globals.d.ts'), 'declare const console: { log(...values: unknown[]): void };\n');
  execFileSync(
    join(REPO, 'node_modules/.bin/tsc'),
    [
      ...['--sourceMap', '--outDir', join(dir, 'compiled/out'), '--rootDir', join(dir, 'compiled/src')],
      ...['--module', 'commonjs', '--target', 'es2022', '--lib', 'es2022'],
      ...['main.ts', 'globals.d.ts'].map((file) => join(dir, 'compiled/src', file)),
    ],
    { cwd: join(dir, 'compiled') },
  );
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'tsx', 'node_modules'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A DAP client connected to an in-process adapter, keeping its events to wait on. */
class Client extends ProtocolClient {
  readonly session = new NodeDebugSession({
    startRelay: (argv, cwd) => spawn(process.execPath, ['--experimental-websocket', relay, ...argv], { cwd, stdio: 'pipe' }),
  });
  readonly events: DebugProtocol.Event[] = [];
  /** Per event name, how many have been waited for. */
  private readonly seen = new Map<string, number>();
  private wake: (() => void) | undefined;

  constructor() {
    super();
    const toAdapter = new PassThrough();
    const fromAdapter = new PassThrough();
    this.session.start(toAdapter, fromAdapter);
    this.connect(fromAdapter, toAdapter);
    for (const name of ['stopped', 'output', 'exited', 'terminated', 'breakpoint', 'initialized'])
      this.on(name, (event: DebugProtocol.Event) => {
        this.events.push(event);
        this.wake?.();
      });
  }

  /** The next event named `name` after the last one waited for. */
  async next<E extends DebugProtocol.Event>(name: string): Promise<E> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const named = this.events.filter((e) => e.event === name);
      const taken = this.seen.get(name) ?? 0;
      if (named.length > taken) {
        this.seen.set(name, taken + 1);
        return named[taken] as E;
      }
      if (Date.now() > deadline) throw new Error(`No ${name} event; saw ${this.events.map((e) => e.event).join(', ')}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 100);
      });
    }
  }

  async stop(): Promise<DebugProtocol.StoppedEvent['body']> {
    return (await this.next<DebugProtocol.StoppedEvent>('stopped')).body;
  }

  output(category = 'stdout'): string {
    return this.events
      .filter((e): e is DebugProtocol.OutputEvent => e.event === 'output' && e.body.category === category)
      .map((e) => e.body.output)
      .join('');
  }

  /** Launches `program` with `breakpoints` (file → lines or specs) set before it runs. */
  async launch(
    program: string,
    breakpoints: Record<string, (number | DebugProtocol.SourceBreakpoint)[]> = {},
    exceptions: string[] = [],
  ): Promise<Map<string, DebugProtocol.Breakpoint[]>> {
    await this.send('initialize', { adapterID: 'node', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    await this.send('launch', { program, cwd: dir });
    await this.next('initialized');
    const placed = new Map<string, DebugProtocol.Breakpoint[]>();
    for (const [path, lines] of Object.entries(breakpoints)) {
      const specs = lines.map((b) => (typeof b === 'number' ? { line: b } : b));
      const { body } = await this.send('setBreakpoints', { source: { path }, breakpoints: specs });
      placed.set(path, body.breakpoints);
    }
    await this.send('setExceptionBreakpoints', { filters: exceptions });
    await this.send('configurationDone', {});
    return placed;
  }

  async frames(): Promise<{ name: string; path: string | undefined; line: number }[]> {
    const { body } = await this.send('stackTrace', { threadId: 1 });
    return body.stackFrames.map((f) => ({ name: f.name, path: f.source?.path, line: f.line, id: f.id }));
  }

  async top(): Promise<{ name: string; path: string | undefined; line: number }> {
    return (await this.frames())[0]!;
  }

  async evaluate(expression: string, frameIndex = 0): Promise<string> {
    const { body } = await this.send('stackTrace', { threadId: 1 });
    const frameId = body.stackFrames[frameIndex]!.id;
    return (await this.send('evaluate', { expression, frameId, context: 'watch' })).body.result;
  }

  /** The variables of a frame's scope, by name. */
  async scope(name: string, frameIndex = 0): Promise<Map<string, DebugProtocol.Variable>> {
    const { body } = await this.send('stackTrace', { threadId: 1 });
    const scopes = await this.send('scopes', { frameId: body.stackFrames[frameIndex]!.id });
    const scope = scopes.body.scopes.find((s) => s.name === name);
    if (!scope) throw new Error(`No ${name} scope: ${scopes.body.scopes.map((s) => s.name).join(', ')}`);
    return this.children(scope.variablesReference);
  }

  async children(reference: number): Promise<Map<string, DebugProtocol.Variable>> {
    const { body } = await this.send('variables', { variablesReference: reference });
    return new Map(body.variables.map((v) => [v.name, v]));
  }

  async exitCode(): Promise<number> {
    const exited = await this.next<DebugProtocol.ExitedEvent>('exited');
    await this.next('terminated');
    return exited.body.exitCode;
  }
}

let client: Client | undefined;

function connect(): Client {
  client = new Client();
  return client;
}

afterEach(async () => {
  await client?.send('disconnect', { terminateDebuggee: true }).catch(() => {});
  client = undefined;
});

describe('NodeDebugSession on JavaScript', () => {
  it('stops at a conditional breakpoint only when true, and steps in, over and out on the right lines', async () => {
    const c = connect();
    const loop = join(dir, 'loop.js');
    const placed = await c.launch(loop, { [loop]: [{ line: 9, condition: 'i === 2' }] });
    // Set before the file loads, it binds as it loads.
    expect(placed.get(loop)).toMatchObject([{ verified: false, line: 9 }]);
    const bound = await c.next<DebugProtocol.BreakpointEvent>('breakpoint');
    expect(bound.body).toMatchObject({ reason: 'changed', breakpoint: { id: placed.get(loop)![0]!.id, verified: true, line: 9 } });

    expect(await c.stop()).toMatchObject({ reason: 'breakpoint' });
    expect(await c.top()).toMatchObject({ name: '(anonymous)', path: loop, line: 9 });
    expect(await c.evaluate('i')).toBe('2');
    expect(await c.evaluate('total')).toBe('1');

    await c.send('stepIn', { threadId: 1 });
    expect(await c.stop()).toMatchObject({ reason: 'step' });
    expect((await c.frames()).slice(0, 2)).toMatchObject([
      { name: 'add', path: loop, line: 2 },
      { name: '(anonymous)', path: loop, line: 9 },
    ]);
    await c.send('next', { threadId: 1 });
    expect(await c.stop()).toMatchObject({ reason: 'step' });
    expect(await c.top()).toMatchObject({ name: 'add', line: 3 });
    expect(await c.evaluate('sum')).toBe('3');
    // Nothing is left to run on line 9 once add returns: V8 stops on the caller's next statement.
    await c.send('stepOut', { threadId: 1 });
    expect(await c.stop()).toMatchObject({ reason: 'step' });
    expect(await c.top()).toMatchObject({ name: '(anonymous)', line: 10 });
    expect(await c.evaluate('total')).toBe('3');
    // Over console.log (Node's own code is never stepped into) to the loop's i++.
    await c.send('next', { threadId: 1 });
    expect(await c.stop()).toMatchObject({ reason: 'step' });
    expect(await c.top()).toMatchObject({ line: 8 });

    await c.send('continue', { threadId: 1 });
    expect(await c.exitCode()).toBe(3);
    expect(c.events.filter((e) => e.event === 'stopped')).toHaveLength(5);
    expect(c.output()).toBe('i=0 total=0\ni=1 total=1\ni=2 total=3\ni=3 total=6\nanswer=12 box\n');
  });

  it('prints log points without stopping, counts hits, shows and sets variables', async () => {
    const c = connect();
    const loop = join(dir, 'loop.js');
    await c.launch(loop, {
      [loop]: [{ line: 2, hitCondition: '3' }, { line: 3, logMessage: 'sum is {sum} of {a}+{b}' }, { line: 13 }],
    });

    // The third call and the fourth (a hit count N stops from the Nth hit on).
    expect(await c.stop()).toMatchObject({ reason: 'breakpoint' });
    const third = await c.scope('Locals');
    expect([third.get('a')?.value, third.get('b')?.value]).toEqual(['1', '2']);
    await c.send('continue', { threadId: 1 });
    expect(await c.stop()).toMatchObject({ reason: 'breakpoint' });
    expect(await c.evaluate('a + b')).toBe('6');
    await c.send('continue', { threadId: 1 });

    expect(await c.stop()).toMatchObject({ reason: 'breakpoint' });
    expect(await c.top()).toMatchObject({ line: 13 });
    const locals = await c.scope('Locals');
    expect(locals.get('total')).toMatchObject({ value: '6', type: 'number' });
    const box = locals.get('box')!;
    expect(box.value).toBe('Object');
    const fields = await c.children(box.variablesReference);
    expect(fields.get('label')?.value).toBe("'box'");
    expect(fields.get('items')?.value).toBe('Array(3)');
    const items = await c.children(fields.get('items')!.variablesReference);
    expect([...items.keys()]).toEqual(['0', '1', '2', 'length']);
    expect(items.get('1')?.value).toBe('20');

    // A property of an object, then a local: the program goes on with the new values.
    const setLabel = await c.send('setVariable', { variablesReference: box.variablesReference, name: 'label', value: "'crate'" });
    expect(setLabel.body.value).toBe("'crate'");
    const { body } = await c.send('scopes', { frameId: (await c.send('stackTrace', { threadId: 1 })).body.stackFrames[0]!.id });
    const local = body.scopes.find((s) => s.name === 'Locals')!;
    const setTotal = await c.send('setVariable', { variablesReference: local.variablesReference, name: 'total', value: '20 + 30' });
    expect(setTotal.body.value).toBe('50');
    await expect(c.evaluate('nope.missing')).rejects.toThrow('ReferenceError: nope is not defined');

    await c.send('continue', { threadId: 1 });
    expect(await c.exitCode()).toBe(3);
    expect(c.events.filter((e) => e.event === 'stopped')).toHaveLength(3);
    expect(c.output()).toBe(
      'sum is 0 of 0+0\ni=0 total=0\nsum is 1 of 0+1\ni=1 total=1\nsum is 3 of 1+2\ni=2 total=3\nsum is 6 of 3+3\ni=3 total=6\nanswer=100 crate\n',
    );
  });

  it('stops on entry at the first statement when asked', async () => {
    const c = connect();
    const loop = join(dir, 'loop.js');
    await c.send('initialize', { adapterID: 'node', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    await c.send('launch', { program: loop, cwd: dir, stopOnEntry: true });
    await c.send('configurationDone', {});
    expect(await c.stop()).toMatchObject({ reason: 'entry' });
    expect(await c.top()).toMatchObject({ path: loop, line: 6 });
    expect(c.output()).toBe('');
    await c.send('continue', { threadId: 1 });
    expect(await c.exitCode()).toBe(3);
  });

  it('stops on an uncaught TypeError and names it', async () => {
    const c = connect();
    const program = join(dir, 'throw.js');
    await c.launch(program, {}, ['uncaught']);
    const message = "Cannot read properties of undefined (reading 'depth')";
    expect(await c.stop()).toMatchObject({ reason: 'exception', description: message });
    expect((await c.frames()).slice(0, 2)).toMatchObject([
      { name: 'depth', path: program, line: 2 },
      { name: '(anonymous)', path: program, line: 5 },
    ]);
    const info = await c.send('exceptionInfo', { threadId: 1 });
    expect(info.body).toMatchObject({ exceptionId: 'TypeError', description: message, breakMode: 'unhandled' });
    await c.send('continue', { threadId: 1 });
    expect(await c.exitCode()).toBe(1);
    expect(c.output()).toBe('before\n');
    expect(c.output('stderr')).toContain(`TypeError: ${message}`);
  });
});

describe('NodeDebugSession on TypeScript', () => {
  it.each([
    ['compiled by tsc', 'compiled/out/main.js', 'compiled'],
    ['run through tsx', 'tsx/src/main.ts', 'tsx'],
  ])('places breakpoints on the .ts lines and shows .ts frames when %s', async (_, program, project) => {
    const c = connect();
    const geometry = join(dir, project, 'src/geometry.ts');
    const main = join(dir, project, 'src/main.ts');
    const placed = await c.launch(join(dir, program), { [geometry]: [7] });
    // The module is not loaded yet: the breakpoint binds when it is, before its code runs.
    expect(placed.get(geometry)).toMatchObject([{ verified: false, line: 7 }]);

    expect(await c.stop()).toMatchObject({ reason: 'breakpoint' });
    const changed = await c.next<DebugProtocol.BreakpointEvent>('breakpoint');
    expect(changed.body).toMatchObject({ reason: 'changed', breakpoint: { verified: true, line: 7 } });
    expect((await c.frames()).slice(0, 2)).toMatchObject([
      { name: 'norm', path: geometry, line: 7 },
      { path: main, line: 8 },
    ]);
    const p = (await c.scope('Locals')).get('p')!;
    expect((await c.children(p.variablesReference)).get('x')?.value).toBe('3');

    await c.send('next', { threadId: 1 });
    expect(await c.stop()).toMatchObject({ reason: 'step' });
    expect(await c.top()).toMatchObject({ name: 'norm', path: geometry, line: 8 });
    expect(await c.evaluate('squared')).toBe('25');

    await c.send('setBreakpoints', { source: { path: geometry }, breakpoints: [] });
    await c.send('continue', { threadId: 1 });
    expect(await c.exitCode()).toBe(0);
    expect(c.output()).toBe('norm=5\nnorm=10\n');
  });

  it('refuses TypeScript it has no tsx for, saying what to do', async () => {
    const c = connect();
    await c.send('initialize', { adapterID: 'node', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    await expect(c.send('launch', { program: join(dir, 'bare/src/main.ts'), cwd: dir })).rejects.toThrow(
      /main\.ts is TypeScript.*compile it, or add tsx/,
    );
  });
});
