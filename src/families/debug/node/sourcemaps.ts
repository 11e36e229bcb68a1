/**
 * The scripts the debugged program loaded and their source maps (TypeScript compiled by tsc or
 * transformed by tsx), to speak of original files and lines to the client while V8 speaks of the
 * generated ones. Lines here are 1-based like the client's; CDP's are 0-based.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEAST_UPPER_BOUND, TraceMap, generatedPositionFor, originalPositionFor, sourceContentFor } from '@jridgewell/trace-mapping';
import type { Location, ScriptParsedEvent } from './cdp.js';

/** How far below a line without code a breakpoint may move to the next line that has some. */
const MAX_LINES_MOVED = 20;

export interface Script {
  scriptId: string;
  url: string;
  /** The file it was loaded from, when it was a file. */
  path: string | undefined;
  map: TraceMap | undefined;
  /** The files its map was made from (absolute paths). */
  sources: string[];
}

/** A place in a file as the client sees it: the original file where a map says so. */
export interface SourcePlace {
  path: string | undefined;
  /** The script's URL, for a script that is no file (node:internal/…). */
  url: string;
  line: number;
  column: number;
}

/** The filesystem path of a script or source URL, if it is one. */
export function urlToPath(url: string): string | undefined {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(url) ? url : undefined;
}

function loadMap(script: ScriptParsedEvent): TraceMap | undefined {
  const reference = script.sourceMapURL;
  if (!reference) return undefined;
  try {
    if (reference.startsWith('data:')) {
      const comma = reference.indexOf(',');
      const header = reference.slice(0, comma);
      const body = reference.slice(comma + 1);
      const text = header.endsWith(';base64') ? Buffer.from(body, 'base64').toString('utf8') : decodeURIComponent(body);
      return new TraceMap(text, script.url);
    }
    const base = script.url.startsWith('file://') || !isAbsolute(script.url) ? script.url : `file://${script.url}`;
    const mapUrl = new URL(reference, base);
    if (mapUrl.protocol !== 'file:') return undefined;
    return new TraceMap(readFileSync(mapUrl, 'utf8'), mapUrl.href);
  } catch {
    // A map that cannot be read or parsed: the generated code is still debuggable as it is.
    return undefined;
  }
}

export class SourceMaps {
  private readonly scripts = new Map<string, Script>();

  add(event: ScriptParsedEvent): Script {
    const map = loadMap(event);
    const sources = map ? map.resolvedSources.map((s) => urlToPath(s ?? '')).filter((p): p is string => p !== undefined) : [];
    const script: Script = { scriptId: event.scriptId, url: event.url, path: urlToPath(event.url), map, sources };
    this.scripts.set(event.scriptId, script);
    return script;
  }

  script(scriptId: string): Script | undefined {
    return this.scripts.get(scriptId);
  }

  /** The loaded scripts whose maps were made from `path`. */
  mappedFrom(path: string): Script[] {
    return [...this.scripts.values()].filter((s) => s.sources.includes(path));
  }

  /** Where a CDP location is, in the original file where the script's map says. */
  original(location: Location): SourcePlace {
    const script = this.scripts.get(location.scriptId);
    const column = location.columnNumber ?? 0;
    if (script?.map) {
      const map = script.map;
      const at = (column: number) => originalPositionFor(map, { line: location.lineNumber + 1, column });
      let found = at(column);
      const path = found.source ? urlToPath(found.source) : undefined;
      if (path && found.line !== null) {
        // V8 stops on a `return` at the end of its expression: in code without whitespace (tsx's) that
        // is the function's closing brace, a line below the return the person reads.
        const lines = this.originalLines(map, found.source!);
        if (lines?.[found.line - 1]?.[found.column] === '}' && column > 0) {
          const before = at(column - 1);
          if (before.source === found.source && before.line !== null && /^\s*return\b/.test(lines[before.line - 1] ?? '')) found = before;
        }
        return { path, url: script.url, line: found.line!, column: found.column! + 1 };
      }
    }
    return { path: script?.path, url: script?.url ?? '', line: location.lineNumber + 1, column: column + 1 };
  }

  private readonly texts = new Map<string, string[] | undefined>();

  /** An original file's lines: from its map, else from the file. */
  private originalLines(map: TraceMap, source: string): string[] | undefined {
    if (!this.texts.has(source)) {
      let text = sourceContentFor(map, source) ?? undefined;
      if (text === undefined) {
        const path = urlToPath(source);
        try {
          text = path ? readFileSync(path, 'utf8') : undefined;
        } catch {
          text = undefined;
        }
      }
      this.texts.set(source, text?.split('\n'));
    }
    return this.texts.get(source);
  }

  /** Where line `line` of the original file `path` is in `script` (or the first line below it with code). */
  generated(script: Script, path: string, line: number): Location | undefined {
    if (!script.map) return undefined;
    const source = script.map.resolvedSources.find((s) => urlToPath(s ?? '') === path);
    if (!source) return undefined;
    for (let candidate = line; candidate <= line + MAX_LINES_MOVED; candidate++) {
      const found = generatedPositionFor(script.map, { source, line: candidate, column: 0, bias: LEAST_UPPER_BOUND });
      if (found.line !== null) return { scriptId: script.scriptId, lineNumber: found.line - 1, columnNumber: found.column };
    }
    return undefined;
  }
}
