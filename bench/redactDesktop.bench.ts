// npm run bench:redact-desktop — redaction on real applications' windows, not pages Chromium drew
// (issue 41: detection that holds on screens nobody tuned to). Every screen the other redaction sets
// hold is HTML that Chromium renders; here the pixels come from the toolkits people's apps are drawn
// with: a VTE terminal (sakura), GTK 3 text views, forms and lists (zenity, yad), and an Xt client
// (xmessage), GTK's light and dark Adwaita by turns, on a real X server (Xvfb) under a real window manager (openbox), captured whole;
// and, added later as wider held-out windows, xterm in X's bitmap faces, rxvt-unicode in its own colours, and two editors with
// syntax colours and line numbers: Geany (GTK 3, Scintilla) and FeatherPad (Qt 5).
//   node bench/redactDesktop.bench.ts [--runs 4] [--seed N] [--no-write] [--label TEXT] [--dump DIR] [--only TEXT,TEXT]
// --seed N: run k draws from seed N + 1000 × k (the same windows for the same seed and --only, so two commits compare pair by pair).
// Runs take 1080p and 1440p by turns, and GTK's light theme for two runs, then its dark one.
// Each screen is shown twice: once with its secrets, once with each secret's characters replaced by
// spaces (nothing else differs: the cursor is hidden, nothing blinks). The pixels that differ are the
// secrets' ink — no DOM to ask, so each secret's character boxes are its ink's extent on its line cut
// into as many equal boxes as it has characters (exact for the terminals' monospace, close for GTK's
// proportional type). A secret leaks when 6 consecutive characters each show a fifth of their ink
// (test/fixtures/leakScore.ts, as the Chromium sets score). Ordinary screens: the share of the
// window's ink pixels the fills cover. Fresh secrets each run; type face, size and display size drawn.
// Detection is the production path (RegionReader over a tesseract pool, redactImage).
// Debian packages: xvfb, openbox, sakura, zenity, yad, x11-utils (xmessage), imagemagick (import); xterm, xfonts-base,
// rxvt-unicode, geany, featherpad for the later windows (a window whose app is missing is listed as not run, not scored).
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { readImageWords } from '../main/ocr/readImageWords.ts';
import { ReaderPool } from '../main/ocr/readerPool.ts';
import { RegionReader } from '../main/ocr/regionReader.ts';
import { TesseractReader } from '../main/ocr/tesseractReader.ts';
import { redactImage } from '../main/privacy/redactImage.ts';
import { inkMasked, secretBoxes } from '../test/fixtures/inkDiff.ts';
import { leaks, type Grey } from '../test/fixtures/leakScore.ts';
import { ALNUM, DIGITS, Dice, HEX, LOWER, Secrets, UPPER } from '../test/fixtures/realScreens.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { seed: { type: 'string' }, only: { type: 'string' }, runs: { type: 'string', default: '4' }, 'no-write': { type: 'boolean', default: false }, label: { type: 'string', default: 'now' }, dump: { type: 'string' } } });
const RUNS = Math.max(1, Number(args.runs) || 2);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Text with secrets in it: a secret is drawn as itself, or as spaces in the blank showing. */
type Part = string | { secret: string; kind: string };
type Line = Part[];
type App = { cmd: string; args: (blank: boolean, files: string) => string[]; /** Files the app shows (and its settings), by path under the files' folder. */ files?: Record<string, Line[]>; /** Where the app looks for its settings, when not the desktop's. */ config?: string };
type Screen = { app: App; secrets: Array<{ kind: string; text: string }>; ordinary: boolean; face: string };

const show = (line: Line, blank: boolean) => line.map((p) => (typeof p === 'string' ? p : blank ? ' '.repeat(p.secret.length) : p.secret)).join('');
const secretsOf = (lines: Line[]) => lines.flatMap((l) => l.flatMap((p) => (typeof p === 'string' ? [] : [{ kind: p.kind, text: p.secret }])));
const s = (kind: string, secret: string): Part => ({ secret, kind });

const MONO = ['DejaVu Sans Mono', 'Nimbus Mono PS'];
const SANS = ['DejaVu Sans', 'Nimbus Sans', 'URW Gothic'];

/** Lines shown by an app: their secrets, and ordinary when they hold none. */
const planted = (lines: Line[]) => ({ secrets: secretsOf(lines), ordinary: secretsOf(lines).length === 0 });

/** The shell command a terminal runs to show out.txt and hold still: the cursor hidden, no prompt after. */
const showOut = (dir: string) => `printf "\\033[?25l"; cat ${dir}/out.txt; sleep 1000`;
const rowsFor = (lines: Line[]) => Math.max(12, lines.length + 3);

/** A terminal showing `lines` (the cursor hidden), in a monospace face at a size drawn. */
function terminal(d: Dice, lines: Line[]): Screen {
  const face = `${d.pick(MONO)} ${d.int(9, 14)}`;
  return {
    ...planted(lines),
    face,
    app: {
      cmd: 'sakura',
      files: { 'out.txt': lines },
      args: (_blank, dir) => ['--font', face, '-c', '170', '-r', String(rowsFor(lines)), '-x', `sh -c '${showOut(dir)}'`],
    },
  };
}

/** An xterm showing `lines`: X's own bitmap faces (misc-fixed, as xterm draws by default) or an Xft one. */
function xterm(d: Dice, lines: Line[]): Screen {
  const bitmap = d.pick(['fixed', '7x14', '9x15', '10x20', '']);
  const size = d.int(9, 13);
  const font = bitmap ? ['-fn', bitmap] : ['-fa', 'DejaVu Sans Mono', '-fs', String(size)];
  return {
    ...planted(lines),
    face: bitmap ? `xterm ${bitmap}` : `xterm DejaVu Sans Mono ${size}`,
    app: { cmd: 'xterm', files: { 'out.txt': lines }, args: (_blank, dir) => [...font, '-geometry', `170x${rowsFor(lines)}+0+0`, '-e', 'sh', '-c', showOut(dir)] },
  };
}

/** rxvt-unicode showing `lines` on its own colours (white on black, or drawn). */
function urxvt(d: Dice, lines: Line[]): Screen {
  const face = `${d.pick(MONO)}:size=${d.int(9, 13)}`;
  const [bg, fg] = d.pick([['black', 'white'], ['#002b36', '#93a1a1'], ['#fdf6e3', '#586e75'], ['#1e1e2e', '#cdd6f4']]) as [string, string];
  return {
    ...planted(lines),
    face: `urxvt ${face} ${fg} on ${bg}`,
    app: { cmd: 'urxvt', files: { 'out.txt': lines }, args: (_blank, dir) => ['-fn', `xft:${face}`, '-bg', bg, '-fg', fg, '-geometry', `170x${rowsFor(lines)}+0+0`, '-e', 'sh', '-c', showOut(dir)] },
  };
}

/** Geany (GTK 3, Scintilla) editing a file: syntax colours, line numbers (its symbols pane and status bar hidden: they change with what the file holds and as it loads). */
function geany(d: Dice, name: string, lines: Line[]): Screen {
  const size = d.int(9, 13);
  const face = `${d.pick(MONO)} ${size}`;
  return {
    ...planted(lines),
    face: `Geany ${face}`,
    app: {
      cmd: 'geany',
      files: { [name]: lines, 'geany/geany.conf': [[`[geany]\npref_main_load_session=false\nsidebar_visible=false\nstatusbar_visible=false\ngeometry=0;0;1500;820;0;\nmsgwindow_visible=false\npref_editor_font=${face}\n`]] },
      args: (_blank, dir) => ['-c', `${dir}/geany`, '-i', '-s', '-t', `${dir}/${name}`],
    },
  };
}

/** FeatherPad (Qt 5) editing a file: Qt's own type and widgets, syntax colours, line numbers. */
function featherpad(d: Dice, name: string, lines: Line[]): Screen {
  const size = d.int(9, 13);
  const family = d.pick(MONO);
  return {
    ...planted(lines),
    face: `FeatherPad ${family} ${size}`,
    app: {
      cmd: 'featherpad',
      files: {
        [name]: lines,
        'featherpad/fp.conf': [[`[text]\nfont="${family},${size},-1,5,50,0,0,0,0,0"\nlineNumbers=true\nnoWrap=true\n\n[window]\nsize=@Size(1400 800)\nstartSize=@Size(1400 800)\nprefSize=@Size(1400 800)\n`]],
      },
      config: '',
      args: (_blank, dir) => [`${dir}/${name}`],
    },
  };
}

function textView(d: Dice, title: string, lines: Line[]): Screen {
  const width = String(d.int(800, 1100));
  return { ...planted(lines), face: 'GTK', app: { cmd: 'zenity', files: { 'view.txt': lines }, args: (_blank, dir) => ['--text-info', '--title', title, '--filename', `${dir}/view.txt`, '--width', width, '--height', '560'] } };
}

const MAKERS: Record<string, (d: Dice, x: Secrets) => Screen> = {
  'terminal: cat .env (sakura)': (d, x) => {
    const lines: Line[] = [
      ['$ cat .env'],
      ['# payments-api, production'],
      ['NODE_ENV=production'],
      ['DATABASE_URL=postgres://payments:', s('password', x.password()), '@db-prod.internal:5432/payments'],
      ['STRIPE_SECRET_KEY=', s('stripe', x.stripe())],
      ['GITHUB_TOKEN=', s('github', x.github())],
      ['AWS_ACCESS_KEY_ID=', s('aws-id', x.awsId())],
      ['AWS_SECRET_ACCESS_KEY=', s('aws-secret', x.awsSecret())],
      ['SESSION_SECRET=', s('hex', d.chars(HEX, 64))],
      ['LOG_LEVEL=info'],
      ['$ '],
    ];
    return terminal(d, lines);
  },
  'terminal: credentials and tokens (sakura)': (d, x) => {
    const lines: Line[] = [
      ['$ cat ~/.aws/credentials'],
      ['[default]'],
      ['aws_access_key_id = ', s('aws-id', x.awsId())],
      ['aws_secret_access_key = ', s('aws-secret', x.awsSecret())],
      ['$ gh auth token'],
      [s('github', x.github())],
      ['$ echo $OPENAI_API_KEY'],
      [s('openai', x.openai())],
      ['$ curl -s localhost:8080/debug/session | jq -r .token'],
      [s('jwt', x.jwt())],
      ['$ kubectl get secret registry -o jsonpath="{.data.password}" | base64 -d'],
      [s('password', x.password())],
    ];
    return terminal(d, lines);
  },
  'text view: config.yml (zenity)': (d, x) => {
    const lines: Line[] = [
      ['# notifier/config.yml'],
      ['slack:'],
      ['  bot_token: ', s('slack', x.slack())],
      ['  channel: "#deploys"'],
      ['smtp:'],
      ['  host: smtp.mailgun.org'],
      ['  user: postmaster@mg.acme.io'],
      ['  password: ', s('password', x.password())],
      ['google:'],
      ['  maps_key: ', s('google', x.google())],
      ['oauth:'],
      ['  client_id: 8842-acme-web'],
      ['  client_secret: ', s('client-secret', d.chars(ALNUM + '_-', 32))],
      ['# Rotate the secrets above with `notifier rotate --all` after anyone with access leaves the team.'],
    ];
    return textView(d, 'config.yml', lines);
  },
  'form: integration settings (yad)': (d, x) => {
    const values = [
      { label: 'Account', value: 'acme-billing', kind: '' },
      // The longest value is not a secret, so the window is as wide with the secrets blanked.
      { label: 'Callback URL', value: 'https://billing.acme.io/integrations/payments/webhooks/receive?source=dashboard&v=2', kind: '' },
      { label: 'API key', value: x.stripe(), kind: 'stripe' },
      { label: 'Webhook signing secret', value: `whsec_${d.chars(ALNUM, 32)}`, kind: 'webhook-secret' },
      { label: 'Client secret', value: d.chars(ALNUM, 40), kind: 'client-secret' },
      { label: 'Region', value: 'eu-west-1', kind: '' },
      { label: 'Admin password', value: x.password(), kind: 'password' },
    ];
    const width = String(d.int(900, 1200));
    return {
      face: 'GTK',
      secrets: values.filter((v) => v.kind).map((v) => ({ kind: v.kind, text: v.value })),
      ordinary: false,
      app: { cmd: 'yad', args: (blank) => ['--form', '--title', 'Integration settings', '--width', width, ...values.map((v) => `--field=${v.label}`), ...values.map((v) => (blank && v.kind ? ' '.repeat(v.value.length) : v.value))] },
    };
  },
  'list: saved logins (yad)': (d, x) => {
    const rows = [['GitLab', 'ada'], ['VPN', 'ada.byron'], ['Grafana', 'admin'], ['Router', 'root'], ['NAS', 'backup']].map(([service, user]) => ({ service, user, password: x.password() }));
    return {
      face: 'GTK',
      secrets: rows.map((r) => ({ kind: 'password', text: r.password })),
      ordinary: false,
      app: { cmd: 'yad', args: (blank) => ['--list', '--title', 'Saved logins', '--width', '900', '--height', '420', '--column=Service', '--column=User', '--column=Password', ...rows.flatMap((r) => [r.service as string, r.user as string, blank ? ' '.repeat(r.password.length) : r.password])] },
    };
  },
  'message: recovery codes (xmessage)': (d) => {
    const code = () => `${d.chars(LOWER + DIGITS, 5)}-${d.chars(LOWER + DIGITS, 5)}`;
    const lines: Line[] = [
      // The longest line is not a secret, so the window is as wide with the secrets blanked.
      ['Save these recovery codes somewhere safe: a password manager or a printed sheet.'],
      ['Each code can be used once to sign in.'],
      [''],
      ...Array.from({ length: 6 }, (): Line => ['   ', s('recovery-code', code())]),
      [''],
      ['Device key: ', s('hex', d.chars(HEX, 40))],
    ];
    return { face: 'Xt', secrets: secretsOf(lines), ordinary: false, app: { cmd: 'xmessage', files: { 'msg.txt': lines }, args: (_blank, dir) => ['-file', `${dir}/msg.txt`] } };
  },
  'terminal: a private key (sakura)': (d, x) => {
    const body = x.pemBody().slice(0, 6);
    const lines: Line[] = [['$ cat ~/.ssh/deploy_key'], ['-----BEGIN OPENSSH PRIVATE KEY-----'], ...body.map((l): Line => [s('pem-line', l)]), ['-----END OPENSSH PRIVATE KEY-----'], ['$ ']];
    return terminal(d, lines);
  },
  'dialog: Wi-Fi password (zenity)': (d, x) => {
    const pass = x.password();
    const network = d.pick(['acme-guest', 'HomeNet-5G', 'Studio Wi-Fi']);
    return {
      face: 'GTK',
      secrets: [{ kind: 'password', text: pass }],
      ordinary: false,
      app: { cmd: 'zenity', args: (blank) => ['--info', '--title', 'Share network', '--width', '520', '--text', `Network: ${network}\nSecurity: WPA2 Personal\nPassword: ${blank ? ' '.repeat(pass.length) : pass}\n\nAnyone with this password can join ${network}; change it in the router's settings.`] },
    };
  },
  'editor: settings.py (Geany)': (d, x) => {
    const lines: Line[] = [
      ['# shop/settings/production.py'],
      ['from .base import *  # noqa: F403'],
      [''],
      ['DEBUG = False'],
      ['ALLOWED_HOSTS = ["shop.acme.io", "www.acme.io"]'],
      ['SECRET_KEY = "', s('django-secret', d.chars(LOWER + DIGITS + '!@#$%^&*(-_=+)', 50)), '"'],
      ['DATABASES = {'],
      ['    "default": {'],
      ['        "ENGINE": "django.db.backends.postgresql",'],
      ['        "NAME": "shop",'],
      ['        "USER": "shop_app",'],
      ['        "PASSWORD": "', s('password', x.password()), '",'],
      ['        "HOST": "db-prod.internal",'],
      ['    }'],
      ['}'],
      ['EMAIL_HOST = "smtp.sendgrid.net"'],
      ['EMAIL_HOST_PASSWORD = "', s('sendgrid', `SG.${d.chars(ALNUM + '_-', 22)}.${d.chars(ALNUM + '_-', 43)}`), '"'],
      ['STRIPE_SECRET_KEY = "', s('stripe', x.stripe()), '"'],
      ['AWS_STORAGE_BUCKET_NAME = "acme-shop-media"'],
      ['AWS_SECRET_ACCESS_KEY = "', s('aws-secret', x.awsSecret()), '"'],
      ['CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": "redis://cache:6379/1"}}'],
    ];
    return geany(d, 'settings.py', lines);
  },
  'editor: docker-compose.yml (FeatherPad, Qt)': (d, x) => {
    const lines: Line[] = [
      ['services:'],
      ['  db:'],
      ['    image: postgres:16'],
      ['    environment:'],
      ['      POSTGRES_USER: app'],
      ['      POSTGRES_PASSWORD: ', s('password', x.password())],
      ['  cache:'],
      ['    image: redis:7'],
      ['    command: redis-server --requirepass ', s('password', x.password())],
      ['  api:'],
      ['    image: ghcr.io/acme/api:2.3.1'],
      ['    environment:'],
      ['      NODE_ENV: production'],
      ['      JWT_SECRET: ', s('base64-secret', d.bytes(32).toString('base64'))],
      ['      MINIO_ACCESS_KEY: ', s('minio-access-key', d.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 20))],
      ['      MINIO_SECRET_KEY: ', s('minio-secret-key', d.chars(ALNUM, 40))],
      ['      GITHUB_TOKEN: ', s('github', x.github())],
      ['    ports:'],
      ['      - "8080:8080"'],
    ];
    return featherpad(d, 'docker-compose.yml', lines);
  },
  'terminal: printenv (xterm)': (d) => {
    const lines: Line[] = [
      ['$ printenv | sort'],
      ['HOME=/home/ada'],
      [`HOSTNAME=build-${d.chars(HEX, 4)}`],
      ['LANG=en_US.UTF-8'],
      ['NPM_TOKEN=', s('npm', `npm_${d.chars(ALNUM, 36)}`)],
      ['PATH=/usr/local/bin:/usr/bin:/bin'],
      ['PWD=/srv/app'],
      ['SHELL=/bin/bash'],
      ['SLACK_WEBHOOK_URL=https://hooks.slack.com/services/', s('slack-webhook', `T${d.chars(UPPER + DIGITS, 8)}/B${d.chars(UPPER + DIGITS, 10)}/${d.chars(ALNUM, 24)}`)],
      ['TWILIO_ACCOUNT_SID=AC', d.chars(HEX, 32)],
      ['TWILIO_AUTH_TOKEN=', s('hex', d.chars(HEX, 32))],
      ['USER=ada'],
      ['VAULT_ADDR=https://vault.acme.internal:8200'],
      ['VAULT_TOKEN=', s('vault', `hvs.${d.chars(ALNUM + '_-', 24)}`)],
      ['$ '],
    ];
    return xterm(d, lines);
  },
  'terminal: psql query (urxvt)': (d, x) => {
    const rows = [
      ['hubspot  ', `pat-na1-${d.chars(HEX, 8)}-${d.chars(HEX, 4)}-${d.chars(HEX, 4)}-${d.chars(HEX, 4)}-${d.chars(HEX, 12)}`, 'hubspot'],
      ['mailchimp', `${d.chars(HEX, 32)}-us${d.int(1, 21)}`, 'mailchimp'],
      ['zendesk  ', d.chars(ALNUM, 40), 'api-key'],
      ['intercom ', `dG9rOj${d.chars(ALNUM, 50)}=`, 'api-key'],
    ] as const;
    const lines: Line[] = [
      ['$ psql "postgresql://report:', s('password', x.password()), '@db.internal:5432/crm"'],
      ['psql (16.4)'],
      ['crm=> SELECT name, api_key FROM integrations ORDER BY name;'],
      ['   name    |                           api_key'],
      ['-----------+--------------------------------------------------------------'],
      ...rows.map(([name, key, kind]): Line => [` ${name} | `, s(kind, key)]),
      ['(4 rows)'],
      [''],
      ['crm=> '],
    ];
    return urxvt(d, lines);
  },
  'editor: Cargo.lock (Geany, ordinary)': (d) => {
    const lines: Line[] = ['serde', 'tokio', 'regex', 'anyhow'].flatMap((name): Line[] => [
      ['[[package]]'],
      [`name = "${name}"`],
      [`version = "${d.int(0, 2)}.${d.int(0, 40)}.${d.int(0, 200)}"`],
      ['source = "registry+https://github.com/rust-lang/crates.io-index"'],
      [`checksum = "${d.chars(HEX, 64)}"`],
      [''],
    ]);
    return geany(d, 'Cargo.lock', lines);
  },
  'terminal: docker images --digests (urxvt, ordinary)': (d) => {
    const lines: Line[] = [
      ['$ docker images --digests'],
      ['REPOSITORY      TAG       DIGEST                                                                    IMAGE ID       CREATED        SIZE'],
      ...['acme/api', 'acme/worker', 'postgres', 'redis', 'nginx'].map((name): Line => [`${name.padEnd(16)}${`${d.int(1, 16)}.${d.int(0, 9)}`.padEnd(10)}sha256:${d.chars(HEX, 64)}   ${d.chars(HEX, 12)}   ${d.int(2, 9)} days ago     ${d.int(40, 400)}MB`]),
      ['$ '],
    ];
    return urxvt(d, lines);
  },
  'terminal: ls, df and git status (xterm, ordinary)': (d) => {
    const files = ['Cargo.toml', 'README.md', 'build.rs', 'src', 'target', 'tests'];
    const lines: Line[] = [
      ['$ ls -l'],
      [`total ${d.int(20, 90)}`],
      ...files.map((f): Line => [`${f.includes('.') ? '-rw-r--r--' : 'drwxr-xr-x'} 1 ada ada ${String(d.int(96, 9999)).padStart(5)} Dec  ${d.int(1, 6)} ${String(d.int(10, 23))}:${String(d.int(10, 59))} ${f}`]),
      ['$ df -h /'],
      ['Filesystem      Size  Used Avail Use% Mounted on'],
      [`/dev/nvme0n1p2  468G  ${d.int(100, 400)}G  ${d.int(20, 300)}G  ${d.int(20, 90)}% /`],
      ['$ git status --short --branch'],
      [`## main...origin/main [ahead ${d.int(1, 5)}]`],
      [' M src/parser.rs'],
      ['?? tests/fixtures/large_input.txt'],
      ['$ '],
    ];
    return xterm(d, lines);
  },
  'terminal: git log and checksums (sakura, ordinary)': (d) => {
    const subjects = ['fix: retry upload on 503', 'feat: add export to CSV', 'chore: bump sharp to 0.34', 'docs: explain the cache', 'refactor: split the parser', 'test: cover empty input', 'fix: off-by-one in pager', 'ci: cache node_modules'];
    const lines: Line[] = [
      ['$ git log --oneline -8'],
      ...subjects.map((m): Line => [`${d.chars(HEX, 7)} ${m}`]),
      ['$ sha256sum dist/*.tar.gz'],
      ...['app-1.4.2.tar.gz', 'app-1.4.3.tar.gz', 'cli-0.9.0.tar.gz'].map((f): Line => [`${d.chars(HEX, 64)}  dist/${f}`]),
      [`$ git rev-parse HEAD`],
      [d.chars(HEX, 40)],
    ];
    return terminal(d, lines);
  },
  'text view: package-lock.json (zenity, ordinary)': (d) => {
    const lines: Line[] = ['"node_modules/ms": {', '"node_modules/debug": {', '"node_modules/semver": {'].flatMap((head): Line[] => [
      [`  ${head}`],
      [`    "version": "${d.int(1, 8)}.${d.int(0, 20)}.${d.int(0, 9)}",`],
      [`    "resolved": "https://registry.npmjs.org/${head.split('/')[1]?.replace(/".*/, '')}/-/x.tgz",`],
      [`    "integrity": "sha512-${d.bytes(48).toString('base64').slice(0, 60)}",`],
      ['    "license": "MIT"'],
      ['  },'],
    ]);
    return textView(d, 'package-lock.json', lines);
  },
  'list: containers (yad, ordinary)': (d) => {
    const rows = ['api', 'worker', 'redis', 'postgres', 'nginx'].map((n) => [d.chars(HEX, 12), `acme/${n}:1.${d.int(0, 9)}`, `sha256:${d.chars(HEX, 24)}…`, `${d.int(1, 59)} minutes ago`]);
    return {
      face: 'GTK',
      secrets: [],
      ordinary: true,
      app: { cmd: 'yad', args: () => ['--list', '--title', 'Containers', '--width', '1000', '--height', '380', '--column=Container ID', '--column=Image', '--column=Digest', '--column=Created', ...rows.flat()] },
    };
  },
};

/** Grey pixels of the whole X screen (ImageMagick's import). */
async function captureScreen(env: NodeJS.ProcessEnv): Promise<{ png: Buffer; grey: Grey }> {
  const png = await new Promise<Buffer>((resolve, reject) => execFile('import', ['-window', 'root', 'png:-'], { env, encoding: 'buffer', maxBuffer: 200_000_000 }, (e, out) => (e ? reject(e) : resolve(out))));
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { png, grey: { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height } };
}

/** Whether two captures differ by more than a blinking text cursor (a few sampled pixels). */
const differs = (a: Grey, b: Grey) => {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 7) if (Math.abs((a.data[i] as number) - (b.data[i] as number)) > 24 && ++n > 40) return true;
  return false;
};

/** The two showings' greys to diff, with what blinks in either (a text cursor) made the same in both. */
function steady(a: Shown, b: Shown): [Grey, Grey] {
  const data = Uint8Array.from(b.grey.data);
  for (let i = 0; i < data.length; i++) if (a.unstable[i] || b.unstable[i]) data[i] = a.grey.data[i] as number;
  return [a.grey, { ...b.grey, data }];
}

/** Starts the app and waits until the screen shows it and holds still; resolves with the capture. */
type Shown = { png: Buffer; grey: Grey; /** Pixels that changed in the 550 ms after (a text cursor blinking). */ unstable: Uint8Array };

async function shown(screen: Screen, blank: boolean, env: NodeJS.ProcessEnv, empty: Grey, dir: string): Promise<Shown> {
  for (const [name, lines] of Object.entries(screen.app.files ?? {})) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), `${lines.map((l) => show(l, blank)).join('\n')}\n`);
  }
  const child: ChildProcess = spawn(screen.app.cmd, screen.app.args(blank, dir), { env: screen.app.config === undefined ? env : { ...env, XDG_CONFIG_HOME: join(dir, screen.app.config) }, stdio: 'ignore' });
  try {
    let last: { png: Buffer; grey: Grey } | undefined;
    for (let i = 0; i < 60; i++) {
      await new Promise((r) => setTimeout(r, 400));
      const now = await captureScreen(env);
      if (last && differs(now.grey, empty) && !differs(now.grey, last.grey)) {
        // Held still for one more step: the window is drawn. A capture half a blink later finds what blinks.
        await new Promise((r) => setTimeout(r, 400));
        const still = await captureScreen(env);
        await new Promise((r) => setTimeout(r, 550));
        const later = await captureScreen(env);
        const unstable = new Uint8Array(still.grey.data.length);
        for (let k = 0; k < unstable.length; k++) unstable[k] = Math.abs((still.grey.data[k] as number) - (later.grey.data[k] as number)) > 24 ? 1 : 0;
        return { ...still, unstable };
      }
      last = now;
    }
    throw new Error(`${screen.app.cmd} did not show a still window in 24 s`);
  } finally {
    const gone = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
    child.kill('SIGTERM');
    await gone;
    // The window manager takes the window away; wait for the empty desktop again.
    for (let i = 0; i < 20 && differs((await captureScreen(env)).grey, empty); i++) await new Promise((r) => setTimeout(r, 200));
  }
}

async function startDesktop(display: number, width: number, height: number, gtkFont: string, scale: number, theme: string): Promise<{ env: NodeJS.ProcessEnv; stop(): Promise<void> }> {
  const config = await mkdtemp(join(tmpdir(), 'glance-desktop-'));
  await mkdir(join(config, 'gtk-3.0'), { recursive: true });
  await writeFile(join(config, 'gtk-3.0', 'settings.ini'), `[Settings]\ngtk-cursor-blink=false\ngtk-enable-animations=false\ngtk-font-name=${gtkFont}\n`);
  await mkdir(join(config, 'sakura'), { recursive: true });
  const xvfb = spawn('Xvfb', [`:${display}`, '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp'], { stdio: 'ignore' });
  const env = { ...process.env, DISPLAY: `:${display}`, XDG_CONFIG_HOME: config, GSETTINGS_BACKEND: 'memory', NO_AT_BRIDGE: '1', GDK_DPI_SCALE: String(scale), GTK_THEME: theme };
  await new Promise((r) => setTimeout(r, 1000));
  const wm = spawn('openbox', ['--sm-disable'], { env, stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 1000));
  return {
    env,
    stop: async () => {
      for (const p of [wm, xvfb]) {
        const gone = new Promise<void>((r) => (p.exitCode !== null ? r() : p.once('exit', () => r())));
        p.kill('SIGTERM');
        await gone;
      }
      await rm(config, { recursive: true, force: true });
    },
  };
}

const pool = new ReaderPool(() => new TesseractReader({ timeoutMs: 300_000 }));
const ocr = new RegionReader(pool);
const limits = { maxInputPixels: 100_000_000 };
const load = loadavg()[0]!.toFixed(1);
const DISPLAYS = [
  { name: '1080p', width: 1920, height: 1080 },
  { name: '1440p', width: 2560, height: 1440 },
];
type Tally = { hidden: number; total: number };
const byScreen = new Map<string, Tally>(), byKind = new Map<string, Tally>(), bySize = new Map<string, Tally>();
const masked = new Map<string, { ink: number; masked: number }>();
const leaked: string[] = [];
const unscored: string[] = [];
const times: number[] = [];
let crashes = 0;
const add = (m: Map<string, Tally>, key: string, hidden: boolean) => {
  const t = m.get(key) ?? { hidden: 0, total: 0 };
  t.total++;
  if (hidden) t.hidden++;
  m.set(key, t);
};
if (args.dump) await mkdir(args.dump, { recursive: true });

const missing = new Set<string>();
for (const cmd of new Set(Object.values(MAKERS).map((make) => make(new Dice(1), new Secrets(new Dice(1))).app.cmd))) {
  await new Promise<void>((r) => execFile('sh', ['-c', `command -v ${cmd}`], (e) => (e && missing.add(cmd), r())));
}
const notRun: string[] = [];
const files = await mkdtemp(join(tmpdir(), 'glance-desktop-files-'));
try {
  for (let run = 0; run < RUNS; run++) {
    const d = new Dice(args.seed === undefined ? undefined : Number(args.seed) + 1000 * run);
    const size = DISPLAYS[run % DISPLAYS.length] as (typeof DISPLAYS)[number];
    const gtkFont = `${d.pick(SANS)} ${d.int(9, 13)}`;
    const scale = d.pick([1, 1, 1.25]);
    const theme = Math.floor(run / 2) % 2 ? 'Adwaita:dark' : 'Adwaita';
    const desktop = await startDesktop(90 + run, size.width, size.height, gtkFont, scale, theme);
    try {
      const empty = (await captureScreen(desktop.env)).grey;
      for (const [name, make] of Object.entries(MAKERS)) {
        if (args.only && !args.only.split(',').some((o) => name.includes(o))) continue;
        const screen = make(d, new Secrets(d));
        if (missing.has(screen.app.cmd)) {
          if (run === 0) notRun.push(`${name}: ${screen.app.cmd} is not installed`);
          continue;
        }
        const tag = `${name} (${size.name}, ${screen.face === 'GTK' ? `${theme} ${gtkFont}${scale !== 1 ? ` ×${scale}` : ''}` : screen.face})`;
        const withSecrets = await shown(screen, false, desktop.env, empty, files);
        const blank = screen.secrets.length ? await shown(screen, true, desktop.env, empty, files) : undefined;
        const started = performance.now();
        const out = await redactImage(
          { data: withSecrets.png, mime: 'image/png' },
          { readWords: (image, signal) => readImageWords(ocr, image, { limits, ...(signal ? { signal } : {}) }), pixels: () => sharp(withSecrets.png) },
          {},
        ).catch((error: unknown) => ({ ok: false as const, code: 'crash', message: String(error), ms: 0 }));
        if (!out.ok) {
          crashes++;
          console.log(`${tag}: ${out.code} ${out.message}`);
          continue;
        }
        times.push(performance.now() - started);
        if (args.dump) {
          const file = name.replace(/[^a-z0-9]+/gi, '-');
          await writeFile(join(args.dump, `${run + 1}-${file}.png`), withSecrets.png);
          if (blank) await writeFile(join(args.dump, `${run + 1}-${file}-blank.png`), blank.png);
          if (out.png) await writeFile(join(args.dump, `${run + 1}-${file}-redacted.png`), out.png);
        }
        if (screen.ordinary) {
          const m = inkMasked(withSecrets.grey, empty, out.regions);
          const t = masked.get(name) ?? { ink: 0, masked: 0 };
          masked.set(name, { ink: t.ink + m.ink, masked: t.masked + m.masked });
          console.log(`${tag}: ${((m.masked / Math.max(1, m.ink)) * 100).toFixed(1)}% of ink masked`);
          continue;
        }
        const boxes = blank ? secretBoxes(...steady(withSecrets, blank), screen.secrets.map((x) => x.text)) : undefined;
        if (!boxes) {
          unscored.push(`${tag}: the two showings differ in a number of bands other than its ${screen.secrets.length} secrets`);
          console.log(unscored.at(-1));
          continue;
        }
        let hidden = 0;
        screen.secrets.forEach((secret, k) => {
          const r = leaks(withSecrets.grey, out.regions, boxes[k] ?? []);
          add(byScreen, name, !r.leaked);
          add(byKind, secret.kind, !r.leaked);
          add(bySize, size.name, !r.leaked);
          if (r.leaked) leaked.push(`${tag}: ${secret.kind} ${secret.text.slice(0, 48)} (${r.longest} in a row)`);
          else hidden++;
        });
        console.log(`${tag}: ${hidden}/${screen.secrets.length} hidden`);
      }
    } finally {
      await desktop.stop();
    }
  }
} finally {
  await pool.close();
  await rm(files, { recursive: true, force: true });
}

const pct = (t: Tally) => `${((t.hidden / Math.max(1, t.total)) * 100).toFixed(1)}% (${t.hidden}/${t.total})`;
const all = [...byScreen.values()].reduce((a, t) => ({ hidden: a.hidden + t.hidden, total: a.total + t.total }), { hidden: 0, total: 0 });
const ink = [...masked.values()].reduce((a, t) => ({ ink: a.ink + t.ink, masked: a.masked + t.masked }), { ink: 0, masked: 0 });
const section = [
  `### desktop apps: ${args.label} (${new Date().toISOString().slice(0, 10)}, ${RUNS} run(s) of ${Object.keys(MAKERS).length} screens)`,
  '',
  `Load ${load} at the start. **Secrets hidden: ${pct(all)}**; ordinary windows' ink masked: **${((ink.masked / Math.max(1, ink.ink)) * 100).toFixed(1)}%**; crashes: ${crashes}; unscored: ${unscored.length}. Detection median ${(median(times) / 1000).toFixed(2)} s a screen.`,
  '',
  markdownTable(['screen', 'hidden'], [...byScreen].map(([k, t]) => [k, pct(t)])),
  '',
  markdownTable(['kind', 'hidden'], [...byKind].map(([k, t]) => [k, pct(t)])),
  '',
  markdownTable(['display', 'hidden'], [...bySize].map(([k, t]) => [k, pct(t)])),
  '',
  markdownTable(['ordinary window', 'ink masked'], [...masked].map(([k, t]) => [k, `${((t.masked / Math.max(1, t.ink)) * 100).toFixed(1)}%`])),
  '',
  leaked.length ? `Leaked:\n${leaked.map((l) => `- ${l}`).join('\n')}` : 'Leaked: none.',
  unscored.length ? `\nUnscored:\n${unscored.map((l) => `- ${l}`).join('\n')}` : '',
  notRun.length ? `\nNot run:\n${notRun.map((l) => `- ${l}`).join('\n')}` : '',
  '',
].join('\n');
console.log(section);
if (!args['no-write']) await writeSection(join(root, 'docs/benchmarks-redact.md'), `redact-desktop-${args.label}`, section);
