import { z } from 'zod';
import { FailureSchema, failure, type Failure } from './result.js';

/** simple: open, scroll, highlight, read, send (100 ms budget); complex: pane list, search (500 ms). */
export type BudgetClass = 'simple' | 'complex';
/** Becomes the MCP annotations readOnlyHint / destructiveHint / idempotentHint. */
export type SideEffect = 'read-only' | 'write' | 'destructive';

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject, N extends string = string> {
  /** `openspace.<modality>.<action>`; also the IDE command ID. */
  name: N;
  /**
   * Listed from a session's start. The rest of a family is listed once the agent enables it
   * (openspace.tools.enable) or calls one of its tools; every tool can be called by name at any time.
   */
  core?: boolean;
  /** Human title; the command palette shows it as `OpenSpace: <title>`. */
  title: string;
  /** When to use the tool and what to pass, for an agent. */
  description: string;
  input: I;
  /** The fields of a successful result, besides `success: true`. */
  output: O;
  budget: BudgetClass;
  effect: SideEffect;
  /**
   * How long a call may wait in the IDE on purpose, by its arguments (terminal.run waits for its
   * command): the hub's time limit for the call grows by as much.
   */
  waitsUpTo?(args: z.output<I>): number;
  /** True when calling twice with the same arguments leaves the IDE as calling once. */
  idempotent?: boolean;
  /**
   * What a successful call leaves in the IDE that its session owns, read from the answer: the hub
   * closes what a session created when it ends (NFR-3.7.1). Every tool that is not read-only says
   * it (`{}`: nothing to clean up), so a new tool cannot forget.
   */
  session?: SessionEffects<z.output<O>>;
}

/** Something a session created in the IDE: a terminal, a tab (by content ID), a highlight, a debug session, a breakpoint. */
export interface SessionResource {
  kind: 'terminal' | 'tab' | 'highlight' | 'debug' | 'breakpoint';
  id: string;
}

export interface SessionEffects<R> {
  /** What the call created, for the session to clean up. */
  creates?: (result: R) => SessionResource[];
  /** What the call closed, which the session no longer has to. */
  releases?: (result: R) => SessionResource[];
}

/** A tool's definition, its name kept as a literal type (ToolName is the union of them all). */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject, const N extends string>(
  def: ToolDefinition<I, O, N>,
): ToolDefinition<I, O, N> {
  return def;
}

export type ToolInput<T extends ToolDefinition> = z.input<T['input']>;
export type ToolArgs<T extends ToolDefinition> = z.output<T['input']>;
export type ToolSuccess<T extends ToolDefinition> = { success: true } & z.output<T['output']>;

/** The full result schema of a tool: its success shape or the shared failure shape. */
export function resultSchema(def: ToolDefinition) {
  return z.union([def.output.extend({ success: z.literal(true) }), FailureSchema]);
}

type JsonSchema = Record<string, unknown>;

/** The part of JSON Schema the catalog's input schemas use (zod's `toJSONSchema`, draft-07), for code that reads them. */
export interface JsonSchemaNode {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  oneOf?: JsonSchemaNode[];
  anyOf?: JsonSchemaNode[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
}

/** A tool's family: `openspace.whiteboard.camera.set` → `whiteboard`. */
export function familyOf(toolName: string): string {
  return toolName.split('.')[1] ?? toolName;
}

/** Input JSON Schema for MCP `inputSchema` (draft-07, the dialect the MCP SDK validates with). */
export function inputJsonSchema(def: ToolDefinition): JsonSchema & { type: 'object' } {
  const schema = z.toJSONSchema(def.input, { target: 'draft-7', io: 'input' }) as JsonSchema;
  delete schema.$schema;
  return { ...schema, type: 'object' };
}

/** Output JSON Schema for MCP `outputSchema`: an object that is either the success or the failure shape. */
export function outputJsonSchema(def: ToolDefinition): JsonSchema & { type: 'object' } {
  const schema = z.toJSONSchema(resultSchema(def), { target: 'draft-7', io: 'output' }) as JsonSchema;
  delete schema.$schema;
  return { type: 'object', ...schema };
}

export function annotations(def: ToolDefinition) {
  return {
    title: def.title,
    readOnlyHint: def.effect === 'read-only',
    destructiveHint: def.effect === 'destructive',
    idempotentHint: def.idempotent ?? def.effect === 'read-only',
    openWorldHint: false,
  };
}

/** Tier 1 validation: parse arguments against a tool's input schema, naming every offending field. */
export function parseArguments<T extends ToolDefinition>(
  def: T,
  args: unknown,
): { ok: true; args: ToolArgs<T> } | { ok: false; failure: Failure } {
  const parsed = def.input.safeParse(args ?? {});
  if (parsed.success) return { ok: true, args: parsed.data as ToolArgs<T> };
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
    if (issue.code === 'unrecognized_keys') return `${where}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    return `${where}: ${issue.message}`;
  });
  const fields = [...new Set(parsed.error.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys : [i.path.join('.')])))].filter(
    Boolean,
  );
  return {
    ok: false,
    failure: failure('INVALID_ARGUMENT', `Invalid arguments for ${def.name}: ${problems.join('; ')}`, { fields }),
  };
}
