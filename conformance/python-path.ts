/**
 * The specs run Python tools (pytest, and programs under debugpy) with Debian's python3, which
 * .ci/run installs them for, ahead of any python3 earlier on PATH. This machine's first python3 is
 * pyenv's, which loads the hypothesis and pytest-benchmark plugins into every pytest it starts:
 * 1.7 CPU-s a start against 0.3. OpenSpace itself takes the first python3 on the person's PATH that
 * has pytest (src/families/test/pytest.ts); its unit tests run pytest with both.
 */
import { existsSync } from 'node:fs';
import { delimiter } from 'node:path';

const DEBIAN_BIN = '/usr/bin';

/** PATH with Debian's python3 first (unchanged where there is none, or it is first already). */
export function debianPythonFirst(path = process.env.PATH ?? ''): string {
  if (!existsSync(`${DEBIAN_BIN}/python3`) || path.split(delimiter)[0] === DEBIAN_BIN) return path;
  return `${DEBIAN_BIN}${delimiter}${path}`;
}
