/**
 * The client's source breakpoints, placed in V8. A JavaScript file's are set by URL, so V8 binds them
 * as the file loads; a TypeScript file's exist in V8 only through a loaded script's source map, so they
 * wait, unverified, until such a script is parsed (the session then calls placeIn before that script
 * runs) and are announced with a `breakpoint` event when placed. Hit conditions are counted here;
 * log points are conditions that print and answer false, so V8 never stops on them.
 */
import { pathToFileURL } from 'node:url';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { CdpConnection, Location } from './cdp.js';
import type { Script, SourceMaps } from './sourcemaps.js';

export interface NodeBreakpoint {
  id: number;
  path: string;
  /** The line asked for, and where V8 placed it (1-based, in `path`). */
  line: number;
  placedLine: number | undefined;
  condition: string | undefined;
  hitCondition: ((hits: number) => boolean) | undefined;
  hits: number;
  /** V8's IDs for it, one per script it was placed in. */
  cdpIds: string[];
  placedIn: Set<string>;
  message: string | undefined;
}

/** Files V8 runs as they are: their breakpoints go by URL, not through a source map. */
const GENERATED = /\.[cm]?js$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** V8's urlRegex for a file: CommonJS and ES modules both report `file://` URLs, older Node paths. */
export function fileUrlRegex(path: string): string {
  return `^(?:${escapeRegExp(pathToFileURL(path).href)}|${escapeRegExp(path)})$`;
}

/** `N` (stop on the Nth hit and after, like VS Code), `>=N`, `>N`, `==N`, `<N`, `<=N` or `%N`. */
export function parseHitCondition(text: string): ((hits: number) => boolean) | undefined {
  const match = /^\s*(>=|<=|==|=|>|<|%)?\s*(\d+)\s*$/.exec(text);
  if (!match) return undefined;
  const n = Number(match[2]);
  switch (match[1]) {
    case '==':
    case '=':
      return (hits) => hits === n;
    case '>':
      return (hits) => hits > n;
    case '<':
      return (hits) => hits < n;
    case '<=':
      return (hits) => hits <= n;
    case '%':
      return (hits) => n > 0 && hits % n === 0;
    default:
      return (hits) => hits >= n;
  }
}

/** A log message's `{expression}` parts as a template literal, printed by the program itself. */
export function logCondition(message: string, condition: string | undefined): string {
  const parts = message.split(/(\{[^{}]+\})/);
  const template = parts
    .map((part) =>
      /^\{[^{}]+\}$/.test(part) ? `\${${part.slice(1, -1)}}` : part.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${'),
    )
    .join('');
  const print = `(console.log(\`${template}\`), false)`;
  return condition ? `(${condition}) && ${print}` : print;
}

export class Breakpoints {
  private readonly byPath = new Map<string, NodeBreakpoint[]>();
  private readonly byCdpId = new Map<string, NodeBreakpoint>();
  private nextId = 0;

  constructor(
    private readonly cdp: () => CdpConnection | undefined,
    private readonly maps: SourceMaps,
    /** A breakpoint was placed after it was answered. */
    private readonly changed: (breakpoint: DebugProtocol.Breakpoint) => void,
  ) {}

  /** Replaces the breakpoints of one file, as setBreakpoints does. */
  async set(path: string, requested: DebugProtocol.SourceBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    const cdp = this.cdp();
    for (const old of this.byPath.get(path) ?? [])
      for (const cdpId of old.cdpIds) {
        this.byCdpId.delete(cdpId);
        await cdp?.send('Debugger.removeBreakpoint', { breakpointId: cdpId }).catch(() => {});
      }
    const breakpoints = requested.map((r) => this.create(path, r));
    this.byPath.set(path, breakpoints);
    for (const breakpoint of breakpoints) {
      if (!cdp || breakpoint.message) continue;
      if (GENERATED.test(path)) await this.setByUrl(cdp, breakpoint);
      else for (const script of this.maps.mappedFrom(path)) await this.placeOne(cdp, breakpoint, script);
    }
    return breakpoints.map((b) => this.shown(b));
  }

  /** Places the waiting breakpoints of the files `script` was made from (call before it runs). */
  async placeIn(script: Script): Promise<void> {
    const cdp = this.cdp();
    if (!cdp || script.sources.length === 0) return;
    for (const path of script.sources)
      for (const breakpoint of this.byPath.get(path) ?? [])
        if (!breakpoint.message && !GENERATED.test(path) && !breakpoint.placedIn.has(script.scriptId)) {
          const wasPlaced = breakpoint.placedLine !== undefined;
          await this.placeOne(cdp, breakpoint, script);
          if (!wasPlaced && breakpoint.placedLine !== undefined) this.changed(this.shown(breakpoint));
        }
  }

  /** Whether a TypeScript (source-mapped) breakpoint still waits for its code to load. */
  get waiting(): boolean {
    return [...this.byPath.entries()].some(
      ([path, list]) => !GENERATED.test(path) && list.some((b) => b.placedLine === undefined && !b.message),
    );
  }

  /** V8 bound a by-URL breakpoint as its script loaded. */
  resolved(cdpId: string, location: Location): void {
    const breakpoint = this.byCdpId.get(cdpId);
    if (!breakpoint || breakpoint.placedLine !== undefined) return;
    breakpoint.placedLine = location.lineNumber + 1;
    this.changed(this.shown(breakpoint));
  }

  find(cdpId: string): NodeBreakpoint | undefined {
    return this.byCdpId.get(cdpId);
  }

  /** Counts a hit; answers whether the program should stop for it. */
  hit(breakpoint: NodeBreakpoint): boolean {
    breakpoint.hits++;
    return breakpoint.hitCondition ? breakpoint.hitCondition(breakpoint.hits) : true;
  }

  private create(path: string, requested: DebugProtocol.SourceBreakpoint): NodeBreakpoint {
    let message: string | undefined;
    const hitCondition = requested.hitCondition ? parseHitCondition(requested.hitCondition) : undefined;
    if (requested.hitCondition && !hitCondition)
      message = `Hit condition "${requested.hitCondition}" is not understood: give N, >=N, ==N or %N.`;
    return {
      id: ++this.nextId,
      path,
      line: requested.line,
      placedLine: undefined,
      condition: requested.logMessage ? logCondition(requested.logMessage, requested.condition) : requested.condition || undefined,
      hitCondition,
      hits: 0,
      cdpIds: [],
      placedIn: new Set(),
      message,
    };
  }

  private async setByUrl(cdp: CdpConnection, breakpoint: NodeBreakpoint): Promise<void> {
    try {
      const answer = await cdp.send<{ breakpointId: string; locations: Location[] }>('Debugger.setBreakpointByUrl', {
        urlRegex: fileUrlRegex(breakpoint.path),
        lineNumber: breakpoint.line - 1,
        ...(breakpoint.condition && { condition: breakpoint.condition }),
      });
      breakpoint.cdpIds.push(answer.breakpointId);
      this.byCdpId.set(answer.breakpointId, breakpoint);
      const location = answer.locations[0];
      if (location) breakpoint.placedLine = location.lineNumber + 1;
    } catch (error) {
      breakpoint.message = error instanceof Error ? error.message : String(error);
    }
  }

  private async placeOne(cdp: CdpConnection, breakpoint: NodeBreakpoint, script: Script): Promise<void> {
    breakpoint.placedIn.add(script.scriptId);
    const location = this.maps.generated(script, breakpoint.path, breakpoint.line);
    if (!location) return;
    try {
      const answer = await cdp.send<{ breakpointId: string; actualLocation: Location }>('Debugger.setBreakpoint', {
        location,
        ...(breakpoint.condition && { condition: breakpoint.condition }),
      });
      breakpoint.cdpIds.push(answer.breakpointId);
      this.byCdpId.set(answer.breakpointId, breakpoint);
      const placed = this.maps.original(answer.actualLocation);
      breakpoint.placedLine ??= placed.path === breakpoint.path ? placed.line : breakpoint.line;
    } catch {
      // No code there in this script (V8 refuses the location): it may be in another one.
    }
  }

  private shown(breakpoint: NodeBreakpoint): DebugProtocol.Breakpoint {
    const verified = breakpoint.placedLine !== undefined && !breakpoint.message;
    return {
      id: breakpoint.id,
      verified,
      line: breakpoint.placedLine ?? breakpoint.line,
      source: { path: breakpoint.path },
      ...(breakpoint.message
        ? { message: breakpoint.message }
        : !verified && { message: 'Not placed yet: it binds when its code loads.', reason: 'pending' as const }),
    };
  }
}
