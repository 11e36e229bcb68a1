import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUT_TAIL, isKeyMaterialLine, MAX_HELD_LINE, MAX_PEM_BLOCK, redact, SecretRedactor } from './redact.js';

// Fake secrets are assembled at run time, so no well-formed token literal sits in the source (secret
// scanners and push protection would flag it).

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64 = ALNUM + '+/';
const B64URL = ALNUM + '_-';

/** Deterministic pseudo-random text. */
function fake(length: number, alphabet = ALNUM, seed = length): string {
  let x = seed * 2654435761 + 12345;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += alphabet[(x >>> 8) % alphabet.length];
  }
  return out;
}

const j = (...parts: string[]) => parts.join('');
const R = (kind: string) => `[REDACTED:${kind}]`;

const AWS_ID = j('AKIA', fake(16, UPPER_DIGITS));
const AWS_STS_ID = j('ASIA', fake(16, UPPER_DIGITS, 7));
const AWS_SECRET = fake(40, B64, 40);
const GHP = j('ghp', '_', fake(36));
const GHO = j('gho', '_', fake(36, ALNUM, 3));
const GHU = j('ghu', '_', fake(36, ALNUM, 4));
const GHS = j('ghs', '_', fake(36, ALNUM, 5));
const GHR = j('ghr', '_', fake(36, ALNUM, 6));
const GH_PAT = j('github', '_pat_', fake(22, ALNUM, 8), '_', fake(59, ALNUM, 9));
const SLACK_BOT = j('xoxb', '-', fake(12, '0123456789'), '-', fake(13, '0123456789', 1), '-', fake(24));
const SLACK_USER = j(
  'xoxp',
  '-',
  fake(12, '0123456789', 2),
  '-',
  fake(12, '0123456789', 3),
  '-',
  fake(13, '0123456789', 4),
  '-',
  fake(32, 'abcdef0123456789'),
);
const SLACK_HOOK = j('https://hooks.', 'slack.com/services/T', fake(10, UPPER_DIGITS), '/B', fake(10, UPPER_DIGITS, 2), '/', fake(24));
const NPM = j('npm', '_', fake(36, ALNUM, 11));
const ANTHROPIC = j('sk-', 'ant-api03-', fake(93, B64URL, 12), 'AA');
const OPENAI = j('sk-', fake(48, ALNUM, 13));
const OPENAI_PROJ = j('sk-', 'proj-', fake(120, B64URL, 14));
const JWT = j('eyJ', fake(33, B64URL, 15), '.eyJ', fake(60, B64URL, 16), '.', fake(43, B64URL, 17));
const DASHES = '-----';
const pemBlock = (label: string, bodyLines: number, eol = '\n', seed = 1) =>
  [
    `${DASHES}BEGIN ${label}${DASHES}`,
    ...Array.from({ length: bodyLines }, (_, i) => fake(64, B64, seed * 100 + i)),
    `${fake(20, B64, seed)}==`,
    `${DASHES}END ${label}${DASHES}`,
  ].join(eol);
const RSA_KEY = pemBlock('RSA PRIVATE KEY', 25);

describe('redact: one table per kind', () => {
  const tables: Record<string, [string, string][]> = {
    aws_access_key_id: [
      [`export AWS_ACCESS_KEY_ID=${AWS_ID}`, `export AWS_ACCESS_KEY_ID=${R('aws_access_key_id')}`],
      [`aws_access_key_id = ${AWS_STS_ID}`, `aws_access_key_id = ${R('aws_access_key_id')}`],
      [`"AccessKeyId": "${AWS_STS_ID}",`, `"AccessKeyId": "${R('aws_access_key_id')}",`],
      [`key ${AWS_ID} in use`, `key ${R('aws_access_key_id')} in use`],
    ],
    aws_secret_access_key: [
      [`aws_secret_access_key = ${AWS_SECRET}`, `aws_secret_access_key = ${R('aws_secret_access_key')}`],
      [`AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`, `AWS_SECRET_ACCESS_KEY=${R('aws_secret_access_key')}`],
      [`  "aws_secret_access_key": "${AWS_SECRET}"`, `  "aws_secret_access_key": "${R('aws_secret_access_key')}"`],
    ],
    github_token: [
      [`GITHUB_TOKEN=${GHP}`, `GITHUB_TOKEN=${R('github_token')}`],
      [`oauth ${GHO}`, `oauth ${R('github_token')}`],
      [`${GHU} ${GHS} ${GHR}`, `${R('github_token')} ${R('github_token')} ${R('github_token')}`],
      // `token:` reads as an assignment whose value runs to the next space: redacted conservatively.
      [`git push https://x-access-token:${GHS}@github.com/o/r.git`, `git push https://x-access-token:${R('github_token')}`],
      [`gh auth login --with-token <<< ${GH_PAT}`, `gh auth login --with-token <<< ${R('github_token')}`],
    ],
    private_key: [
      [`${RSA_KEY}\n`, `${R('private_key')}\n`],
      [`before\n${pemBlock('OPENSSH PRIVATE KEY', 6, '\n', 2)}\nafter`, `before\n${R('private_key')}\nafter`],
      [`${pemBlock('EC PRIVATE KEY', 3, '\r\n', 3)}\r\n$ `, `${R('private_key')}\r\n$ `],
      [pemBlock('ENCRYPTED PRIVATE KEY', 10, '\n', 4), R('private_key')],
      [pemBlock('PRIVATE KEY', 10, '\n', 5), R('private_key')],
      [pemBlock('PGP PRIVATE KEY BLOCK', 10, '\n', 6), R('private_key')],
      [`"private_key": "${pemBlock('PRIVATE KEY', 4, '\\n', 7)}\\n",`, `"private_key": "${R('private_key')}\\n",`],
      [
        `${DASHES}BEGIN DSA PRIVATE KEY${DASHES}\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${fake(32, '0123456789ABCDEF')}\n\n${fake(64, B64)}\n${DASHES}END DSA PRIVATE KEY${DASHES}\nok`,
        `${R('private_key')}\nok`,
      ],
      [`${DASHES}BEGIN RSA PRIVATE KEY${DASHES}\n${fake(64, B64)}\n(truncated`, R('private_key')],
    ],
    slack_token: [
      [`SLACK_BOT_TOKEN=${SLACK_BOT}`, `SLACK_BOT_TOKEN=${R('slack_token')}`],
      [`token ${SLACK_USER} ok`, `token ${R('slack_token')} ok`],
      [j('xoxa', '-2-', fake(40)), R('slack_token')],
      [j('using xoxr', '-', fake(30)), `using ${R('slack_token')}`],
      [j('xoxs', '-', fake(12, '0123456789'), '-', fake(20)), R('slack_token')],
    ],
    slack_webhook: [
      [`curl -X POST ${SLACK_HOOK} -d @msg.json`, `curl -X POST ${R('slack_webhook')} -d @msg.json`],
      [`webhook_url: "${SLACK_HOOK}"`, `webhook_url: "${R('slack_webhook')}"`],
    ],
    npm_token: [
      [`//registry.npmjs.org/:_authToken=${NPM}`, `//registry.npmjs.org/:_authToken=${R('npm_token')}`],
      [`NPM_TOKEN ${NPM}`, `NPM_TOKEN ${R('npm_token')}`],
    ],
    anthropic_key: [
      [`ANTHROPIC_API_KEY=${ANTHROPIC}`, `ANTHROPIC_API_KEY=${R('anthropic_key')}`],
      [`x-api-key: ${ANTHROPIC}`, `x-api-key: ${R('anthropic_key')}`],
      [`client = Anthropic(api_key="${ANTHROPIC}")`, `client = Anthropic(api_key="${R('anthropic_key')}")`],
    ],
    openai_key: [
      [`OPENAI_API_KEY=${OPENAI}`, `OPENAI_API_KEY=${R('openai_key')}`],
      [`using key ${OPENAI_PROJ}.`, `using key ${R('openai_key')}.`],
      [`'${OPENAI}'`, `'${R('openai_key')}'`],
    ],
    jwt: [
      [`id_token ${JWT}`, `id_token ${R('jwt')}`],
      [`{"jwt":"${JWT}"}`, `{"jwt":"${R('jwt')}"}`],
      [`Cookie: session=${JWT}; Path=/`, `Cookie: session=${R('jwt')}; Path=/`],
      [j('unsigned eyJ', fake(20, B64URL), '.eyJ', fake(20, B64URL, 3), '.'), `unsigned ${R('jwt')}`],
    ],
    authorization: [
      [`Authorization: Bearer ${fake(32)}`, `Authorization: Bearer ${R('authorization')}`],
      [`curl -H "Authorization: Basic ${fake(24, B64)}=" https://api`, `curl -H "Authorization: Basic ${R('authorization')}" https://api`],
      [`authorization: token ${fake(40, 'abcdef0123456789')}`, `authorization: token ${R('authorization')}`],
      [`> Proxy-Authorization: Bearer ${fake(20)}`, `> Proxy-Authorization: Bearer ${R('authorization')}`],
      [`{"Authorization":"Bearer ${fake(30)}"}`, `{"Authorization":"Bearer ${R('authorization')}"}`],
      [`Authorization: Bearer ${JWT}`, `Authorization: Bearer ${R('jwt')}`],
    ],
    bearer_token: [[`using Bearer ${fake(40, B64URL)} for api`, `using Bearer ${R('bearer_token')} for api`]],
    url_credentials: [
      [`postgres://admin:${fake(16)}@db.internal:5432/app`, `postgres://admin:${R('url_credentials')}@db.internal:5432/app`],
      [`redis://:${fake(20)}@cache:6379`, `redis://:${R('url_credentials')}@cache:6379`],
      [`git clone https://user:${fake(12)}@example.com/r.git`, `git clone https://user:${R('url_credentials')}@example.com/r.git`],
    ],
    password: [
      ['password=hunter2', `password=${R('password')}`],
      ['Password: Tr0ub4dor&3', `Password: ${R('password')}`],
      ['DB_PASSWORD="correct horse battery staple"', `DB_PASSWORD="${R('password')}"`],
      ["passwd: 's3cret!'", `passwd: '${R('password')}'`],
      ['  "password": "p@ss\\"word",', `  "password": "${R('password')}",`],
      ['mysql --password=Sup3rS3cret -u root', `mysql --password=${R('password')} -u root`],
      ['dbPassword := "x9y8z7"', `dbPassword := "${R('password')}"`],
      [':passphrase => "open sesame"', `:passphrase => "${R('password')}"`],
      ['PASSWORD=abc123, user=bob', `PASSWORD=${R('password')}, user=bob`],
      ["password='unterminated value", `password='${R('password')}`],
    ],
    token: [
      ['token=abc123def456', `token=${R('token')}`],
      ['ACCESS_TOKEN: 9f8e7d6c5b4a', `ACCESS_TOKEN: ${R('token')}`],
      ['refreshToken = "r-1-abcdef"', `refreshToken = "${R('token')}"`],
      ['https://api.example.com/cb?code=1&token=abc123 done', `https://api.example.com/cb?code=1&token=${R('token')} done`],
      ['--token=deadbeefcafe', `--token=${R('token')}`],
    ],
    secret: [
      ['secret=s3cr3t-value', `secret=${R('secret')}`],
      ['CLIENT_SECRET: "abcDEF123"', `CLIENT_SECRET: "${R('secret')}"`],
      ['clientSecret: x-y-z-1', `clientSecret: ${R('secret')}`],
      ['JWT_SECRET=keyboard-cat', `JWT_SECRET=${R('secret')}`],
    ],
    api_key: [
      ['api_key=0123456789abcdef', `api_key=${R('api_key')}`],
      ['API-KEY: my-key-value', `API-KEY: ${R('api_key')}`],
      ['apiKey: "AIza-fake-value-1"', `apiKey: "${R('api_key')}"`],
      ['SECRET_KEY=django-insecure-abc', `SECRET_KEY=${R('api_key')}`],
      ['access_key = AK-not-aws-42', `access_key = ${R('api_key')}`],
      ['private_key: "k-123"', `private_key: "${R('api_key')}"`],
    ],
  };

  for (const [kind, rows] of Object.entries(tables)) {
    describe(kind, () => {
      it.each(rows)('%j', (input, expected) => {
        expect(redact(input)).toEqual({ text: expected, redacted: true });
        // Fed one character at a time.
        expect(feed(input, [...input])).toEqual(expected);
      });
    });
  }
});

describe('redact: no false positives on ordinary output', () => {
  const ordinary = [
    'commit 3f786850e387550fdab836ed7e6dc881de23001b',
    '3f78685 (HEAD -> main, origin/main) Fix token refresh when the session expires',
    'Merge: 1a2b3c4 5d6e7f8',
    'e83c5163316f89bfbde7d9ab23ca2e25604af290',
    'request 123e4567-e89b-12d3-a456-426614174000 finished in 12ms',
    'const logo = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";',
    '"integrity": "sha512-Qv3Ygd7hY6ZzS3vbJCUEnGJZ3KNl2ViuPmHuVx6H5kHq9OM8HpdwQ4OqUrpzKqjW0m9/UxP0A8fq4k0P2N5OAg==",',
    'password: ********',
    'Password: ••••••••',
    'Enter password:',
    "Password for 'https://github.com':",
    'passwd: password updated successfully',
    'https://github.com/openspace/openspace/pull/42?tab=files#diff-abc',
    'http://localhost:3000/api/v1/users?page=2',
    'git@github.com:org/repo.git',
    'ssh://git@github.com:22/org/repo.git',
    '  token: string;',
    '  password?: string | undefined;',
    'const token = getToken();',
    'const token = await fetchToken(url);',
    'token = process.env.GITHUB_TOKEN',
    'secret = os.getenv("SECRET")',
    'password_hash = bcrypt(...)',
    'input_tokens: 1523, output_tokens: 204, max_tokens=4096',
    'tokenizer = load()',
    'if token == null:',
    'if (token != undefined) return;',
    'password: null',
    '"token": null,',
    'TOKEN=$GITHUB_TOKEN',
    'export API_KEY=${API_KEY}',
    'token: ${{ secrets.GITHUB_TOKEN }}',
    'password: <your-password>',
    'secret: {{ .Values.secret }}',
    'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
    'Authorization: Bearer',
    'Uses Bearer authentication.',
    'std::string token::value() const',
    'npm_config_registry=https://registry.npmjs.org/',
    'sk-learn is not the package name',
    'task-force-alpha-bravo-charlie-delta',
    'eyJ is the base64 of {"',
    '-----BEGIN CERTIFICATE-----',
    '-----BEGIN PUBLIC KEY-----',
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLE user@host',
    'drwxr-xr-x  5 user staff  160 Jan  1 12:00 secrets',
    '✓ 42 tests passed (1.2s)',
    '$ ls -la ~/.ssh',
    'AKIA is the prefix of AWS access key ids',
    'ghp_ tokens start with ghp_',
  ];

  it.each(ordinary)('%j is unchanged', (line) => {
    expect(redact(line)).toEqual({ text: line, redacted: false });
    expect(redact(`${line}\r\n`)).toEqual({ text: `${line}\r\n`, redacted: false });
  });
});

/** Feed the pieces one by one, then flush; returns everything released. */
function feed(input: string, pieces: string[]): string {
  const r = new SecretRedactor();
  let out = '';
  for (const p of pieces) out += r.write(p).text;
  return out + r.flush().text;
}

function splitAt(input: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let at = 0;
  for (const p of points) {
    pieces.push(input.slice(at, p));
    at = p;
  }
  pieces.push(input.slice(at));
  return pieces;
}

describe('redact: streaming', () => {
  it('holds back the current incomplete line and releases it on \\n, \\r or flush', () => {
    const r = new SecretRedactor();
    expect(r.write('ok line\npass')).toEqual({ text: 'ok line\n', redacted: false });
    expect(r.write('word=hun')).toEqual({ text: '', redacted: false });
    expect(r.write('ter2\r')).toEqual({ text: `password=${R('password')}\r`, redacted: true });
    expect(r.write('\nprogress 10%\rprogress 20%')).toEqual({ text: '\nprogress 10%\r', redacted: false });
    expect(r.flush()).toEqual({ text: 'progress 20%', redacted: false });
    expect(r.flush()).toEqual({ text: '', redacted: false });
  });

  it('never releases a prefix of a token split across writes', () => {
    const r = new SecretRedactor();
    const half = GHP.length / 2;
    expect(r.write(`export GH=${GHP.slice(0, half)}`).text).toBe('');
    expect(r.write(`${GHP.slice(half)}\n`)).toEqual({ text: `export GH=${R('github_token')}\n`, redacted: true });
  });

  it('holds a private key block across many writes and lines until END', () => {
    const r = new SecretRedactor();
    const input = `$ cat id_rsa\r\n${pemBlock('RSA PRIVATE KEY', 25, '\r\n')}\r\n$ `;
    const outs = [...input].map((ch) => r.write(ch));
    const text = outs.map((o) => o.text).join('') + r.flush().text;
    expect(text).toBe(`$ cat id_rsa\r\n${R('private_key')}\r\n$ `);
    expect(outs.filter((o) => o.redacted)).toHaveLength(1);
    // Nothing was released between BEGIN and END.
    const beginAt = input.indexOf('-----BEGIN');
    const endAt = input.indexOf('-----END');
    let released = 0;
    outs.forEach((o, i) => {
      if (i > beginAt && i < endAt + 20) released += o.text.length;
    });
    expect(released).toBe(0);
  });

  it('redacts an unterminated private key block whole at flush', () => {
    const r = new SecretRedactor();
    expect(r.write(`a\n${DASHES}BEGIN PRIVATE KEY${DASHES}\n${fake(64, B64)}\n`)).toEqual({ text: 'a\n', redacted: false });
    expect(r.flush()).toEqual({ text: R('private_key'), redacted: true });
  });

  it('redacts a block longer than 16 KiB at once, then drops key material until END', () => {
    const r = new SecretRedactor();
    const body = Array.from({ length: 400 }, (_, i) => fake(64, B64, i)).join('\n'); // ~26 KiB
    const input = `${DASHES}BEGIN RSA PRIVATE KEY${DASHES}\n${body}\n${DASHES}END RSA PRIVATE KEY${DASHES}\nnext line\n`;
    const first = r.write(input.slice(0, MAX_PEM_BLOCK + 100));
    expect(first).toEqual({ text: R('private_key'), redacted: true });
    const rest = r.write(input.slice(MAX_PEM_BLOCK + 100));
    expect(rest).toEqual({ text: '\nnext line\n', redacted: false });
  });

  it('an over-long open block ends at the first line that is not key material', () => {
    const lines = Array.from({ length: 300 }, (_, i) => fake(64, B64, i));
    const input = `${DASHES}BEGIN PRIVATE KEY${DASHES}\n${lines.join('\n')}\n$ echo done\ndone\n`;
    expect(feed(input, [input])).toBe(`${R('private_key')}$ echo done\ndone\n`);
  });

  it('an over-long open block: the unfinished last line is judged at flush', () => {
    const lines = Array.from({ length: 300 }, (_, i) => fake(64, B64, i));
    const block = `${DASHES}BEGIN PRIVATE KEY${DASHES}\n${lines.join('\n')}\n`;
    expect(feed(block + '$ ', [block, '$ '])).toBe(`${R('private_key')}$ `);
    expect(feed(block + fake(30, B64), [block, fake(30, B64)])).toBe(R('private_key'));
  });

  it('recognises key material lines, with cat -n and grep prefixes', () => {
    expect(isKeyMaterialLine(`${fake(64, B64)}\r\n`)).toBe(true);
    expect(isKeyMaterialLine('Qw==')).toBe(true);
    expect(isKeyMaterialLine('')).toBe(true);
    expect(isKeyMaterialLine(`key.pem:${fake(64, B64)}`)).toBe(true);
    expect(isKeyMaterialLine(`    12\t${fake(64, B64)}`)).toBe(true);
    expect(isKeyMaterialLine('Proc-Type: 4,ENCRYPTED')).toBe(true);
    expect(isKeyMaterialLine('$ echo done')).toBe(false);
    expect(isKeyMaterialLine('npm ERR! code E404')).toBe(false);
  });

  it('bounds what an endless line holds back', () => {
    const r = new SecretRedactor();
    const word = 'lorem ipsum dolor sit amet ';
    let released = '';
    let input = '';
    for (let i = 0; i < 4000; i++) {
      input += word;
      released += r.write(word).text;
      expect(input.length - released.length).toBeLessThanOrEqual(MAX_HELD_LINE);
    }
    expect(input.length - released.length).toBeGreaterThanOrEqual(CUT_TAIL - 1024);
    released += r.flush().text;
    expect(released).toBe(input);
  });

  it('keeps secrets whole across the cuts of an endless line', () => {
    const words = Array.from({ length: 5000 }, (_, i) =>
      i % 700 === 350 ? `password="${fake(20, ALNUM, i)} ${fake(10, ALNUM, i + 1)}"` : i % 500 === 250 ? `${AWS_ID}` : `w${i}`,
    );
    const input = words.join(' ');
    const expected = input.replace(/password="[^"]*"/g, `password="${R('password')}"`).replaceAll(AWS_ID, R('aws_access_key_id'));
    expect(
      feed(
        input,
        splitAt(
          input,
          Array.from({ length: 40 }, (_, i) => i * 997),
        ),
      ),
    ).toBe(expected);
    expect(feed(input, [...input])).toBe(expected);
  });

  it('does not cut through a secret at the over-long-line bound', () => {
    // A long run without spaces, with a token placed right where the cut would fall.
    const filler = fake(MAX_HELD_LINE - CUT_TAIL - 10, 'abcdefghij.');
    const input = `${filler}:${GHP}:${fake(CUT_TAIL + 100, 'abcdefghij.')}`;
    expect(feed(input, splitAt(input, [1000, MAX_HELD_LINE - 5, MAX_HELD_LINE + 20, MAX_HELD_LINE + 50]))).toBe(
      input.replace(GHP, R('github_token')),
    );
  });

  it('redacts and drops the rest of a line that is one giant secret candidate', () => {
    const r = new SecretRedactor();
    const value = fake(40 * 1024, ALNUM);
    const out1 = r.write(`x token=${value.slice(0, 20 * 1024)}`);
    expect(out1.redacted).toBe(true);
    expect(out1.text).toBe(`x token=${R('token')}${R('truncated')}`);
    // A giant unfinished JWT: the part before the cut is released as it does not match yet; the rest,
    // where the secret parts would be, is dropped.
    const jwt = new SecretRedactor();
    const head = `eyJ${fake(20 * 1024, B64URL)}`;
    const got = jwt.write(`a ${head}`).text;
    expect(got.endsWith(R('truncated'))).toBe(true);
    expect(got.length).toBeLessThanOrEqual(head.length - CUT_TAIL + 40);
    expect(jwt.write(`.eyJ${fake(100, B64URL)}.${fake(43, B64URL)}\nb`).text).toBe('\n');
    expect(jwt.flush().text).toBe('b');
    expect(r.write(`${value.slice(20 * 1024)} tail\nnext\n`)).toEqual({ text: '\nnext\n', redacted: false });
  });

  it('redact() of a one-line and of a multi-line text', () => {
    expect(redact('')).toEqual({ text: '', redacted: false });
    expect(redact(`a ${AWS_ID}\nb ${NPM}\nc`)).toEqual({
      text: `a ${R('aws_access_key_id')}\nb ${R('npm_token')}\nc`,
      redacted: true,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const arbString = (alphabet: string, min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });

/** A secret and the text that carries it (the secret itself is what must never show). */
const arbSecret: fc.Arbitrary<{ secret: string; text: string }> = fc.oneof(
  fc.tuple(fc.constantFrom('AKIA', 'ASIA'), arbString(UPPER_DIGITS, 16, 16)).map(([p, b]) => ({ secret: p + b, text: p + b })),
  fc
    .tuple(fc.constantFrom('aws_secret_access_key = ', 'AWS_SECRET_ACCESS_KEY=', 'aws_secret_access_key: "'), arbString(B64, 40, 40))
    .map(([k, v]) => ({ secret: v, text: k + v + (k.endsWith('"') ? '"' : '') })),
  fc
    .tuple(fc.constantFrom('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), arbString(ALNUM, 36, 40))
    .map(([p, b]) => ({ secret: p + b, text: p + b })),
  fc.tuple(arbString(ALNUM, 22, 22), arbString(ALNUM, 59, 59)).map(([a, b]) => {
    const s = j('github', '_pat_', a, '_', b);
    return { secret: s, text: s };
  }),
  fc
    .tuple(fc.constantFrom('xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-'), arbString('0123456789', 10, 13), arbString(ALNUM, 24, 32))
    .map(([p, n, b]) => ({ secret: `${p}${n}-${b}`, text: `${p}${n}-${b}` })),
  fc.tuple(arbString(UPPER_DIGITS, 9, 11), arbString(UPPER_DIGITS, 9, 11), arbString(ALNUM, 24, 24)).map(([t, b, k]) => {
    const s = j('https://hooks.', `slack.com/services/T${t}/B${b}/${k}`);
    return { secret: s, text: s };
  }),
  arbString(ALNUM, 36, 36).map((b) => ({ secret: `npm_${b}`, text: `npm_${b}` })),
  arbString(B64URL, 90, 100).map((b) => ({ secret: `sk-ant-api03-${b}AA`, text: `sk-ant-api03-${b}AA` })),
  fc.tuple(fc.constantFrom('sk-', 'sk-proj-'), arbString(ALNUM, 40, 60)).map(([p, b]) => ({ secret: `${p}${b}9z`, text: `${p}${b}9z` })),
  fc.tuple(arbString(B64URL, 20, 40), arbString(B64URL, 20, 80), arbString(B64URL, 20, 43)).map(([h, p, s]) => {
    const t = `eyJ${h}.eyJ${p}.${s}`;
    return { secret: t, text: t };
  }),
  fc
    .tuple(
      fc.constantFrom('RSA PRIVATE KEY', 'PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'EC PRIVATE KEY'),
      fc.array(arbString(B64, 64, 64), { minLength: 1, maxLength: 12 }),
      fc.constantFrom('\n', '\r\n'),
    )
    .map(([label, lines, eol]) => {
      const t = [`${DASHES}BEGIN ${label}${DASHES}`, ...lines, `${DASHES}END ${label}${DASHES}`].join(eol);
      return { secret: t, text: t };
    }),
  fc
    .tuple(
      fc.constantFrom(
        'password=',
        'PASSWORD: ',
        'passwd:',
        'db_password = ',
        '"password": ',
        'token=',
        'GITHUB_TOKEN: ',
        'secret=',
        'client_secret: ',
        'api_key=',
        'API-KEY: ',
        'accessToken = ',
      ),
      arbString(`${ALNUM}!@#%^&+=_-.~`, 12, 30),
      fc.constantFrom('', '"', "'"),
    )
    .map(([key, value, q]) => ({ secret: value, text: `${key}${q}${value}${q}` })),
  fc
    .tuple(fc.constantFrom('Authorization: Bearer ', 'authorization: Basic ', 'Bearer '), arbString(B64URL, 24, 60))
    .map(([p, v]) => ({ secret: v, text: p + v })),
  fc.tuple(fc.constantFrom('postgres', 'https', 'mongodb+srv', 'redis'), arbString(ALNUM, 12, 24)).map(([scheme, pwd]) => ({
    secret: pwd,
    text: `${scheme}://user:${pwd}@db.example.com/x`,
  })),
);

const ORDINARY_LINES = [
  'commit 3f786850e387550fdab836ed7e6dc881de23001b',
  'Author: Jane Doe <jane@example.com>',
  '    Fix token refresh',
  'npm WARN deprecated inflight@1.0.6',
  'added 412 packages in 3s',
  ' ✓ src/security/redact.test.ts (120 tests) 88ms',
  'request 123e4567-e89b-12d3-a456-426614174000 ok',
  'password: ********',
  '$ ls -la',
  'drwxr-xr-x  5 user staff 160 Jan  1 12:00 .',
  'https://github.com/openspace/openspace/pull/42',
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB',
  'Progress: 45%',
];

/** Noise: ordinary lines and random characters that cannot spell a secret or a keyword. */
const arbSafeText = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constantFrom(...ORDINARY_LINES), fc.constantFrom('\n', '\r\n')).map(([line, eol]) => line + eol),
      arbString('0123456789abcdefABCDEF .,:;/=_-()[]{}<>#@!?%&*+|\t\n\r\r\nééé日😀', 0, 40),
      fc.constantFrom('\n', '\r\n', '\r', ' '),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const SEPARATORS = [' ', '\n', '\r\n', '\t', '"', "'", ', ', '; ', ' (', ') ', '[', '] ', '<', '> ', '=', ': '];
const cuts = fc.array(fc.nat({ max: 100_000 }), { maxLength: 12 });

describe('redact: properties', () => {
  it('a secret embedded in noise never shows, nor any 12+ character piece of it, whatever the split points', () => {
    fc.assert(
      fc.property(
        arbSafeText,
        fc.constantFrom(...SEPARATORS),
        arbSecret,
        fc.constantFrom(...SEPARATORS.filter((s) => s !== '=' && s !== ': ')),
        arbSafeText,
        cuts,
        (before, sep1, { secret, text }, sep2, after, cutPoints) => {
          const input = before + sep1 + text + sep2 + after;
          const outs: { text: string; redacted: boolean }[] = [];
          const r = new SecretRedactor();
          for (const piece of splitAt(input, cutPoints)) outs.push(r.write(piece));
          outs.push(r.flush());
          const output = outs.map((o) => o.text).join('');
          expect(outs.some((o) => o.redacted)).toBe(true);
          const context = `${before}${sep1}\0${sep2}${after}`;
          expect(output).not.toContain(secret);
          for (let i = 0; i + 12 <= secret.length; i++) {
            const piece = secret.slice(i, i + 12);
            if (!context.includes(piece)) expect(output).not.toContain(piece);
          }
          // Each write released only what it could; no piece of the secret ever showed in any of them.
          for (const o of outs) expect(o.text).not.toContain(secret);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('text without secrets passes through unchanged whatever the chunking', () => {
    fc.assert(
      fc.property(arbSafeText, cuts, (input, cutPoints) => {
        const r = new SecretRedactor();
        const outs = splitAt(input, cutPoints).map((p) => r.write(p));
        outs.push(r.flush());
        expect(outs.map((o) => o.text).join('')).toBe(input);
        expect(outs.every((o) => !o.redacted)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  const arbMixed = fc
    .array(
      fc.oneof(
        arbSafeText,
        arbSecret.map((s) => s.text),
        fc.constantFrom(...SEPARATORS),
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join(''));

  it('`redacted` is true exactly when something was replaced', () => {
    fc.assert(
      fc.property(arbMixed, cuts, (input, cutPoints) => {
        const r = new SecretRedactor();
        const outs = splitAt(input, cutPoints).map((p) => r.write(p));
        outs.push(r.flush());
        for (const o of outs) expect(o.redacted).toBe(o.text.includes('[REDACTED:'));
        const output = outs.map((o) => o.text).join('');
        expect(outs.some((o) => o.redacted)).toBe(output !== input);
      }),
      { numRuns: 1000 },
    );
  });

  it('chunking does not change the output (below the 16 KiB bounds)', () => {
    fc.assert(
      fc.property(arbMixed, cuts, (input, cutPoints) => {
        expect(feed(input, splitAt(input, cutPoints))).toBe(redact(input).text);
      }),
      { numRuns: 1000 },
    );
  });
});
