import { ToolError, type ErrorCode } from './result.js';

/** For tests: the ToolError code a promise rejects with, or 'none' if it resolves (other errors propagate). */
export async function codeOf(promise: Promise<unknown>): Promise<ErrorCode | 'none'> {
  try {
    await promise;
    return 'none';
  } catch (err) {
    if (err instanceof ToolError) return err.code;
    throw err;
  }
}
