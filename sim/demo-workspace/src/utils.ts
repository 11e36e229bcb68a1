/** Small helpers shared by the routes. */

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function parseLimit(raw: string | undefined, fallback = 20): number {
  const n = Number.parseInt(raw ?? '', 10);
  return Number.isFinite(n) ? clamp(n, 1, 100) : fallback;
}

export function nowIso(): string {
  return new Date().toISOString();
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function assertString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new HttpError(400, `${field} must be a non-empty string`);
  }
  return value;
}

// TODO: replace with a real logger once we pick one.
export function log(message: string, fields: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ time: nowIso(), message, ...fields }));
}
