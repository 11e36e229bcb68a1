import { describe, expect, it } from 'vitest';
import {
  bwrapArgs,
  DEFAULT_HIDDEN_PATHS,
  expandHome,
  HiddenPathSetting,
  sandboxSettings,
  SANDBOX_ENABLED_SETTING,
  SANDBOX_NETWORK_SETTING,
} from './sandbox.js';

describe('sandbox settings: the person chooses, a workspace only tightens', () => {
  it('is on, with network, hiding the default paths, when nobody says otherwise', () => {
    expect(sandboxSettings({})).toEqual({
      settings: { enabled: true, network: true, hiddenPaths: [...DEFAULT_HIDDEN_PATHS] },
      ignored: [],
    });
    expect(DEFAULT_HIDDEN_PATHS).toEqual(expect.arrayContaining(['~/.ssh', '~/.aws', '~/.openspace', '~/.docker/config.json']));
  });

  it('lets the person turn it off, turn the network off and hide more', () => {
    expect(sandboxSettings({ enabled: false }).settings.enabled).toBe(false);
    const strict = sandboxSettings({ network: false, hiddenPaths: ['~/.config/gh'] }).settings;
    expect(strict).toMatchObject({ enabled: true, network: false });
    expect(strict.hiddenPaths).toEqual([...DEFAULT_HIDDEN_PATHS, '~/.config/gh']);
  });

  it('ignores a workspace that turns the sandbox off or the network on, and says so', () => {
    const { settings, ignored } = sandboxSettings({ network: false }, { enabled: false, network: true });
    expect(settings).toMatchObject({ enabled: true, network: false });
    expect(ignored).toEqual([`${SANDBOX_ENABLED_SETTING}: false`, `${SANDBOX_NETWORK_SETTING}: true`]);
  });

  it('lets a workspace (or one of several scopes) turn it on, the network off and hide more', () => {
    const { settings, ignored } = sandboxSettings({ enabled: false }, {}, { enabled: true, network: false, hiddenPaths: ['/srv/keys'] });
    expect(settings).toMatchObject({ enabled: true, network: false });
    expect(settings.hiddenPaths.at(-1)).toBe('/srv/keys');
    expect(ignored).toEqual([]);
  });

  it('does not call a workspace value ignored when the person chose the same', () => {
    expect(sandboxSettings({ enabled: false }, { enabled: false }).ignored).toEqual([]);
    expect(sandboxSettings({}, { network: true }).ignored).toEqual([]);
  });

  it('takes hidden paths that are absolute or in the home directory, nothing relative', () => {
    for (const ok of ['~/.config/gh', '/etc/secret', '~/a b']) expect(HiddenPathSetting.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['.env', '~user/x', '', 'secrets/', '~', '/a\0b']) expect(HiddenPathSetting.safeParse(bad).success, bad).toBe(false);
    expect(expandHome('~/.ssh', '/home/ann/')).toBe('/home/ann/.ssh');
    expect(expandHome('/etc/x', '/home/ann')).toBe('/etc/x');
  });
});

describe("bwrap's command line", () => {
  const plan = {
    workspace: '/tmp/ws',
    cwd: '/tmp/ws/src',
    network: true,
    hidden: [
      { path: '/home/ann/.ssh', kind: 'directory' as const },
      { path: '/home/ann/.netrc', kind: 'file' as const },
    ],
    command: ['/bin/bash', '--norc'],
  };
  const at = (args: string[], ...flag: string[]) => args.findIndex((_, i) => flag.every((f, j) => args[i + j] === f));

  it('mounts the system read-only, then a private /tmp, then the workspace read-write, then hides the secrets', () => {
    const args = bwrapArgs(plan);
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    const order = [
      at(args, '--ro-bind', '/', '/'),
      at(args, '--tmpfs', '/tmp'),
      at(args, '--bind', '/tmp/ws', '/tmp/ws'),
      at(args, '--tmpfs', '/home/ann/.ssh'),
      at(args, '--ro-bind', '/dev/null', '/home/ann/.netrc'),
    ];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(at(args, '--dev', '/dev')).toBeGreaterThan(0);
    expect(at(args, '--proc', '/proc')).toBeGreaterThan(0);
  });

  it('ends the process tree with the shell, starts in cwd, forgets the hub token and runs the command last', () => {
    const args = bwrapArgs(plan);
    expect(args).toEqual(expect.arrayContaining(['--unshare-pid', '--die-with-parent']));
    expect(at(args, '--chdir', '/tmp/ws/src')).toBeGreaterThan(0);
    expect(at(args, '--unsetenv', 'OPENSPACE_TOKEN')).toBeGreaterThan(0);
    expect(args.slice(-3)).toEqual(['--', '/bin/bash', '--norc']);
  });

  it('cuts the network only when the settings say so', () => {
    expect(bwrapArgs(plan)).not.toContain('--unshare-net');
    expect(bwrapArgs({ ...plan, network: false })).toContain('--unshare-net');
  });
});
