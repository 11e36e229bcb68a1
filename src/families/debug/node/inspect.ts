/**
 * What the client may look at while the program is stopped: its frames (in original files where a
 * source map says), their scopes, objects' children, expressions, and setting a variable. Every ID it
 * hands out is good for one stop only: `reset` when the program runs again.
 */
import { basename } from 'node:path';
import { Handles } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { CallFrame, CdpConnection, EvaluateResult, ExceptionDetails, RemoteObject } from './cdp.js';
import type { SourceMaps } from './sourcemaps.js';
import { callArgument, properties, render, typeOf } from './values.js';

const SCOPE_NAMES: Record<string, string> = {
  local: 'Local',
  closure: 'Closure',
  block: 'Block',
  module: 'Module',
  script: 'Script',
  global: 'Global',
  catch: 'Catch',
  with: 'With',
  eval: 'Eval',
};

/** The scopes that hold a function's own variables, shown together as its "Locals". */
const OWN = new Set(['block', 'catch', 'with', 'eval']);

/** One scope of a frame: its object and its place in the frame's scope chain. */
type ScopePart = { objectId: string; frame: CallFrame; index: number };

/** What a variablesReference stands for: scopes of a frame (inner first), or an object. */
type Container = { objectId: string } | { parts: ScopePart[] };

export class StopInspector {
  private readonly frames = new Handles<CallFrame>();
  private readonly containers = new Handles<Container>();

  constructor(
    private readonly connection: () => CdpConnection,
    private readonly maps: SourceMaps,
  ) {}

  reset(): void {
    this.frames.reset();
    this.containers.reset();
  }

  stackFrames(callFrames: CallFrame[]): DebugProtocol.StackFrame[] {
    return callFrames.map((frame) => {
      const place = this.maps.original(frame.location);
      const source: DebugProtocol.Source | undefined = place.path
        ? { name: basename(place.path), path: place.path }
        : place.url
          ? { name: place.url, presentationHint: 'deemphasize', origin: 'internal' }
          : undefined;
      return {
        id: this.frames.create(frame),
        name: frame.functionName || '(anonymous)',
        line: place.line,
        column: place.column,
        ...(source && { source }),
        ...(!place.path && { presentationHint: 'subtle' as const }),
      };
    });
  }

  /**
   * A frame's scopes. The blocks it is inside (a loop's `let i`), a `catch`, and the function's own
   * scope are one "Locals", inner names first, as debugpy and LLDB show a function's variables;
   * closures, the module and the global scope follow as V8 names them.
   */
  scopes(frameId: number): DebugProtocol.Scope[] {
    const frame = this.frames.get(frameId);
    if (!frame) return [];
    const chain = frame.scopeChain.flatMap((scope, index) =>
      scope.object.objectId ? [{ type: scope.type, part: { objectId: scope.object.objectId, frame, index } }] : [],
    );
    let own = 0;
    while (own < chain.length && OWN.has(chain[own]!.type)) own++;
    if (own < chain.length && (chain[own]!.type === 'local' || (own > 0 && chain[own]!.type === 'module'))) own++;
    const locals = chain.slice(0, own).map((s) => s.part);
    return [
      ...(locals.length > 0 ? [{ name: 'Locals', variablesReference: this.containers.create({ parts: locals }), expensive: false }] : []),
      ...chain.slice(own).map(({ type, part }) => ({
        name: SCOPE_NAMES[type] ?? type,
        variablesReference: this.containers.create({ parts: [part] }),
        expensive: type === 'global',
      })),
    ];
  }

  async variables(reference: number): Promise<DebugProtocol.Variable[]> {
    const container = this.containers.get(reference);
    if (!container) return [];
    const cdp = this.connection();
    if ('objectId' in container) return (await properties(cdp, container.objectId)).map(({ name, value }) => this.variable(name, value));
    const seen = new Set<string>();
    const variables: DebugProtocol.Variable[] = [];
    for (const part of container.parts) {
      for (const { name, value } of await properties(cdp, part.objectId)) {
        // An inner block's variable hides an outer one of the same name, as in the program.
        if (seen.has(name)) continue;
        seen.add(name);
        variables.push(this.variable(name, value));
      }
    }
    return variables;
  }

  /** Evaluates in a frame (the program stopped) or globally; an exception it throws is an error. */
  async evaluate(expression: string, frameId: number | undefined, silent: boolean): Promise<DebugProtocol.Variable> {
    const frame = frameId !== undefined ? this.frames.get(frameId) : undefined;
    return this.variable('', await this.evaluateIn(expression, frame, silent));
  }

  async setVariable(reference: number, name: string, expression: string, topFrame: CallFrame | undefined): Promise<DebugProtocol.Variable> {
    const container = this.containers.get(reference);
    if (!container) throw new Error('That variable is gone: the program ran since it was listed.');
    const cdp = this.connection();
    if ('parts' in container) {
      const { frame, index } = await this.holder(container.parts, name);
      const value = await this.evaluateIn(expression, frame, false);
      await cdp
        .send('Debugger.setVariableValue', {
          scopeNumber: index,
          variableName: name,
          newValue: callArgument(value),
          callFrameId: frame.callFrameId,
        })
        // V8 sets only local, closure and catch scopes this way; an assignment reaches the others.
        .catch(() => this.evaluateIn(`${name} = (${expression})`, frame, false));
      return this.variable(name, value);
    }
    const value = await this.evaluateIn(expression, topFrame, false);
    const answer = await cdp.send<EvaluateResult>('Runtime.callFunctionOn', {
      objectId: container.objectId,
      functionDeclaration: 'function (name, value) { this[name] = value; }',
      arguments: [{ value: name }, callArgument(value)],
    });
    if (answer.exceptionDetails) throw new Error(exceptionText(answer.exceptionDetails));
    return this.variable(name, value);
  }

  /** The innermost of `parts` that holds `name` (the one the program would assign), else the first. */
  private async holder(parts: ScopePart[], name: string): Promise<ScopePart> {
    for (const part of parts) {
      if ((await properties(this.connection(), part.objectId)).some((p) => p.name === name)) return part;
    }
    return parts[0]!;
  }

  private async evaluateIn(expression: string, frame: CallFrame | undefined, silent: boolean): Promise<RemoteObject> {
    const cdp = this.connection();
    const answer = frame
      ? await cdp.send<EvaluateResult>('Debugger.evaluateOnCallFrame', { callFrameId: frame.callFrameId, expression, silent })
      : await cdp.send<EvaluateResult>('Runtime.evaluate', { expression, silent, includeCommandLineAPI: true });
    if (answer.exceptionDetails) throw new Error(exceptionText(answer.exceptionDetails));
    return answer.result;
  }

  private variable(name: string, value: RemoteObject): DebugProtocol.Variable {
    const expandable = value.objectId !== undefined && value.type === 'object';
    return {
      name,
      value: render(value),
      type: typeOf(value),
      variablesReference: expandable ? this.containers.create({ objectId: value.objectId! }) : 0,
    };
  }
}

/** An exception's first line (`ReferenceError: x is not defined`), as the client's error message. */
function exceptionText(details: ExceptionDetails): string {
  const description = details.exception?.description ?? (details.exception ? render(details.exception) : undefined);
  return (description ?? details.text).split('\n')[0]!;
}
