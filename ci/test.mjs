// `npm test`: the static checks (ci/checks.mjs) beside the specs, whose time is mostly waiting for
// real shells, runners, debuggers and git (the checks fill the CPU they leave), then the latency
// budgets alone, on a machine the other files no longer load. Fails if any part fails; the
// latency run does not start after a failure.
import { spawn } from 'node:child_process';

const run = (command, args) => new Promise((done) => spawn(command, args, { stdio: 'inherit' }).on('close', (code) => done(code === 0)));

const [checks, specs] = await Promise.all([
  run('node', ['ci/checks.mjs']),
  run('npx', [
    'vitest',
    'run',
    '--coverage',
    '--maxWorkers=3',
    '--project',
    'unit*',
    '--project',
    'conformance',
    '--project',
    'conformance:sim-disk',
  ]),
]);
const latency = checks && specs && (await run('npx', ['vitest', 'run', '--maxWorkers=2', '--project', 'conformance:latency*']));
process.exitCode = latency ? 0 : 1;
