import { describe, expect, it } from 'vitest';
import {
  bwrapArgs,
  NETWORK_DIRECTORY_INSIDE,
  protectedPaths,
  sandboxEnvironment,
  DEFAULT_ALLOWED_HOSTS,
  DEFAULT_HOME_READABLE,
  DEFAULT_HIDDEN_PATHS,
  expandHome,
  HiddenPathSetting,
  sandboxSettings,
  SANDBOX_ENABLED_SETTING,
  SANDBOX_NETWORK_SETTING,
  SANDBOX_ALLOWED_HOSTS_SETTING,
  SANDBOX_HOME_READABLE_SETTING,
} from './sandbox.js';

describe('sandbox settings: the person chooses, a workspace only tightens', () => {
  it('is on, with network, hiding the default paths, when nobody says otherwise', () => {
    expect(sandboxSettings({})).toEqual({
      settings: {
        enabled: true,
        network: true,
        hiddenPaths: [...DEFAULT_HIDDEN_PATHS],
        homeReadable: [...DEFAULT_HOME_READABLE],
        allowedHosts: [...DEFAULT_ALLOWED_HOSTS],
      },
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

  it('lets a workspace narrow the allowed hosts, never add one nor grant reads of the home', () => {
    const { settings, ignored } = sandboxSettings(
      { allowedHosts: ['registry.npmjs.org', 'pypi.org'] },
      { allowedHosts: ['pypi.org', 'attacker.example'], homeReadable: ['~/.ssh'] },
    );
    expect(settings.allowedHosts).toEqual(['pypi.org']);
    expect(settings.homeReadable).toEqual([...DEFAULT_HOME_READABLE]);
    expect(ignored).toEqual([SANDBOX_HOME_READABLE_SETTING, `${SANDBOX_ALLOWED_HOSTS_SETTING}: attacker.example`]);
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
    workspace: '/home/ann/ws',
    cwd: '/home/ann/ws/src',
    home: '/home/ann',
    readable: [{ path: '/home/ann/.gitconfig', kind: 'file' as const }],
    hidden: [
      { path: '/home/ann/ws/.ssh', kind: 'directory' as const },
      { path: '/etc/shadow', kind: 'file' as const },
    ],
    protected: [
      { path: '/home/ann/ws/.git/hooks', kind: 'directory' as const, exists: true },
      { path: '/home/ann/ws/.npmrc', kind: 'file' as const, exists: false },
      { path: '/home/ann/ws/.vscode', kind: 'directory' as const, exists: false },
    ],
    emptyDirectory: '/tmp/c/empty',
    emptyFile: '/tmp/c/empty-file',
    command: ['/bin/bash', '--norc'],
  };
  const at = (args: string[], ...flag: string[]) => args.findIndex((_, i) => flag.every((f, j) => args[i + j] === f));

  it('mounts the system read-only, a private /tmp, an empty home with its grants, the workspace, its read-only paths, then hides', () => {
    const args = bwrapArgs(plan);
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    const order = [
      at(args, '--ro-bind', '/', '/'),
      at(args, '--tmpfs', '/tmp'),
      at(args, '--tmpfs', '/home/ann'),
      at(args, '--ro-bind', '/home/ann/.gitconfig', '/home/ann/.gitconfig'),
      at(args, '--bind', '/home/ann/ws', '/home/ann/ws'),
      at(args, '--ro-bind', '/home/ann/ws/.git/hooks', '/home/ann/ws/.git/hooks'),
      at(args, '--ro-bind', '/tmp/c/empty-file', '/home/ann/ws/.npmrc'),
      at(args, '--ro-bind', '/tmp/c/empty', '/home/ann/ws/.vscode'),
      at(args, '--tmpfs', '/home/ann/ws/.ssh'),
      at(args, '--ro-bind', '/tmp/c/empty-file', '/etc/shadow'),
    ];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(at(args, '--dev', '/dev')).toBeGreaterThan(0);
    expect(at(args, '--proc', '/proc')).toBeGreaterThan(0);
  });

  it('drops every capability, unshares every namespace it can, ends the tree with the shell, runs the command last', () => {
    const args = bwrapArgs(plan);
    expect(args).toEqual(expect.arrayContaining(['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--die-with-parent']));
    expect(at(args, '--cap-drop', 'ALL')).toBeGreaterThan(0);
    expect(at(args, '--chdir', '/home/ann/ws/src')).toBeGreaterThan(0);
    expect(args.slice(-3)).toEqual(['--', '/bin/bash', '--norc']);
  });

  it('binds the proxy directory only with a network', () => {
    expect(bwrapArgs(plan)).not.toContain(NETWORK_DIRECTORY_INSIDE);
    const args = bwrapArgs({ ...plan, networkDirectory: '/tmp/net' });
    expect(at(args, '--bind', '/tmp/net', NETWORK_DIRECTORY_INSIDE)).toBeGreaterThan(0);
  });
});

describe("the sandbox's environment", () => {
  it('passes what shells and toolchains need, never the token nor anything named like a secret', () => {
    const env = sandboxEnvironment({
      PATH: '/usr/bin',
      HOME: '/home/ann',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      TERM: 'xterm',
      OPENSPACE_TOKEN: 'x',
      GITHUB_TOKEN: 'x',
      AWS_SECRET_ACCESS_KEY: 'x',
      NPM_CONFIG__AUTH: 'x',
      SSH_AUTH_SOCK: '/run/user/0/ssh',
      DATABASE_URL: 'postgres://u:p@h/db',
      LD_PRELOAD: '/evil.so',
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/ann', LANG: 'C.UTF-8', LC_ALL: 'C', TERM: 'xterm' });
  });
});

describe('the workspace paths that run code later', () => {
  const kinds: Record<string, 'directory' | 'file'> = {
    '/w/.git': 'directory',
    '/w/.git/hooks': 'directory',
    '/w/.git/config': 'file',
    '/w/.github': 'file',
  };
  it('binds what exists as itself and covers what does not, but nothing under a file', () => {
    const paths = protectedPaths('/w', (p) => kinds[p]);
    expect(paths).toEqual(
      expect.arrayContaining([
        { path: '/w/.git/hooks', kind: 'directory', exists: true },
        { path: '/w/.git/config', kind: 'file', exists: true },
        { path: '/w/.npmrc', kind: 'file', exists: false },
        { path: '/w/.husky', kind: 'directory', exists: false },
      ]),
    );
    expect(paths.find((p) => p.path.startsWith('/w/.github'))).toBeUndefined();
  });
  it('covers a missing .git whole: no repository can be planted', () => {
    const paths = protectedPaths('/w', () => undefined);
    expect(paths).toContainEqual({ path: '/w/.git', kind: 'directory', exists: false });
    expect(paths.find((p) => p.path.startsWith('/w/.git/'))).toBeUndefined();
  });
});
