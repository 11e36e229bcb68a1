import type { IdePort } from '../families/index.js';
import type { TerminalOutputOptions } from '../families/terminal/output.js';

/** How an IDE wants its state kept. */
export interface IdeStateOptions {
  /** Each terminal's kept output: its ring buffer's size, where warnings go. */
  terminalOutput?: TerminalOutputOptions;
}

/** A part of an IDE's state that a family keeps between calls (its terminals' screens, proposals under review …). */
export interface StatePart<T> {
  /** This part of the IDE's state, made on first use. */
  of(ide: IdePort): T;
}

/** A part of the state, made for each IDE by `create` the first time a command asks for it. */
export function statePart<T>(create: (ide: IdePort, options: IdeStateOptions) => T): StatePart<T> {
  const part: StatePart<T> = { of: (ide) => ide.state.get(part, () => create(ide, ide.state.options)) };
  return part;
}

/**
 * What the commands keep for one IDE between calls: its terminals' screens, the person's events, the
 * proposals under review, what an agent typed without Enter. One object, made with the IDE's port
 * and disposed with it; each family names its parts (statePart) in its own folder.
 */
export class IdeState {
  private readonly parts = new Map<StatePart<unknown>, unknown>();

  constructor(readonly options: IdeStateOptions = {}) {}

  get<T>(part: StatePart<T>, create: () => T): T {
    if (!this.parts.has(part)) this.parts.set(part, create());
    return this.parts.get(part) as T;
  }

  /** Stop what the parts listen to (a terminal's output, the person's editors). */
  dispose(): void {
    for (const value of this.parts.values()) (value as { dispose?: () => void }).dispose?.();
    this.parts.clear();
  }
}
