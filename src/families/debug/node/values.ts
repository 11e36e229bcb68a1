/**
 * JavaScript values as the client shows them, rendered like VS Code's JavaScript debugger: strings
 * quoted, objects by their description (`Array(3)`, `Map(2)`, `Point`), errors by their first line.
 */
import type { CallArgument, CdpConnection, PropertyDescriptor, RemoteObject } from './cdp.js';

/** The most children one object shows: an agent reads them, and a huge array would drown it. */
export const MAX_CHILDREN = 100;

const MAX_VALUE_LENGTH = 200;

function shorten(text: string): string {
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

export function render(object: RemoteObject): string {
  switch (object.type) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return shorten(`'${String(object.value).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`);
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'symbol':
      return object.description ?? object.unserializableValue ?? String(object.value);
    case 'function': {
      // A function's description is its whole source: its head says enough.
      const head = /^(?:async\s+)?(?:function\s*\*?\s*([\w$]*)|class\s+([\w$]+))/.exec(object.description ?? '');
      return head?.[2] ? `class ${head[2]}` : `ƒ ${head?.[1] ?? ''}()`;
    }
    default:
      if (object.subtype === 'null') return 'null';
      if (object.subtype === 'error') return shorten((object.description ?? 'Error').split('\n')[0]!);
      return shorten(object.description ?? object.className ?? 'Object');
  }
}

/** The type the client shows next to a value. */
export function typeOf(object: RemoteObject): string {
  return object.type === 'object' && object.subtype !== 'null' ? (object.className ?? 'Object') : object.type;
}

/** A value already in the debuggee, to pass to Runtime.callFunctionOn or Debugger.setVariableValue. */
export function callArgument(object: RemoteObject): CallArgument {
  if (object.objectId) return { objectId: object.objectId };
  if (object.unserializableValue) return { unserializableValue: object.unserializableValue };
  if (object.type === 'undefined') return {};
  return { value: object.value };
}

/** An object's own properties with values, array elements first, at most MAX_CHILDREN. */
export async function properties(cdp: CdpConnection, objectId: string): Promise<{ name: string; value: RemoteObject }[]> {
  const { result } = await cdp.send<{ result: PropertyDescriptor[] }>('Runtime.getProperties', {
    objectId,
    ownProperties: true,
  });
  const shown = result
    .filter((p) => p.name !== '__proto__')
    .map((p) => ({ name: p.name, value: p.value ?? { type: 'undefined', description: '(getter)' } }));
  const isIndex = (name: string) => /^\d+$/.test(name);
  const indexed = shown.filter((p) => isIndex(p.name)).sort((a, b) => Number(a.name) - Number(b.name));
  return [...indexed, ...shown.filter((p) => !isIndex(p.name))].slice(0, MAX_CHILDREN);
}

/** The message of a thrown value: an error's `message`, else the value itself. */
export async function thrownMessage(cdp: CdpConnection, thrown: RemoteObject): Promise<string> {
  if (thrown.objectId) {
    const answer = await cdp
      .send<{ result: RemoteObject }>('Runtime.callFunctionOn', {
        objectId: thrown.objectId,
        functionDeclaration: 'function () { return this instanceof Error ? String(this.message) : String(this); }',
        returnByValue: true,
      })
      .catch(() => undefined);
    if (typeof answer?.result.value === 'string') return answer.result.value;
  }
  return thrown.type === 'string' ? String(thrown.value) : render(thrown);
}
