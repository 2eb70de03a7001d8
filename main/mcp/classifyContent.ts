// Binary or text: the MIME or the file name decides when it says something, else the bytes.
// Also the signature of binary a server already decoded as text (many U+FFFD).
/** Binary decoded as text: at least this many U+FFFD in at least MANGLED_MIN_CHARS (a PNG read as UTF-8 by a server). */
const MANGLED_MIN_REPLACEMENTS = 8;
const MANGLED_MIN_CHARS = 1024;

const TEXT_EXTENSIONS = new Set(
  ('md markdown txt text rst adoc org json jsonc json5 ndjson yaml yml toml ini cfg conf properties env xml html htm xhtml css scss sass less ' +
    'js mjs cjs ts mts cts tsx jsx vue svelte py pyi rb go rs java kt kts scala groovy c h cc cpp cxx hpp hh cs fs swift m mm php pl pm lua r jl dart ' +
    'sh bash zsh fish ps1 psm1 bat cmd sql csv tsv svg log tex bib proto graphql gql gradle cmake mk makefile dockerfile gitignore gitattributes ' +
    'editorconfig lock patch diff ipynb erb haml ex exs erl hs elm clj cljs lisp el vim nix tf hcl')
    .split(' '),
);
const BINARY_EXTENSIONS = new Set(
  ('png jpg jpeg jpe gif webp bmp tif tiff ico icns avif heic heif jxl psd pdf zip gz tgz bz2 xz zst 7z rar tar jar war apk ipa dmg iso ' +
    'wasm exe dll so dylib bin dat o a lib class pyc whl deb rpm msi wav mp3 ogg oga opus flac m4a aac wma mid midi mp4 m4v mov webm mkv avi wmv flv ' +
    'woff woff2 ttf otf eot sqlite sqlite3 db docx xlsx pptx odt ods odp doc xls ppt epub mobi parquet npy npz pkl pt onnx')
    .split(' '),
);

function mimeVerdict(mime: string): 'text' | 'binary' | undefined {
  const m = mime.toLowerCase().split(';')[0]?.trim() ?? '';
  if (m === 'image/svg+xml' || m.startsWith('text/') || m.endsWith('+json') || m.endsWith('+xml')) return 'text';
  if (/^application\/(json|xml|javascript|ecmascript|x-javascript|typescript|x-sh|x-shellscript|yaml|x-yaml|toml|sql|graphql|x-httpd-php|x-python|x-ndjson)$/.test(m)) return 'text';
  if (/^(image|audio|video|font)\//.test(m)) return 'binary';
  if (/^application\/(octet-stream|pdf|zip|gzip|x-gzip|x-tar|x-7z-compressed|x-rar-compressed|vnd\.|msword|wasm|java-archive|x-bzip2|x-xz|zstd)/.test(m)) return 'binary';
  return undefined;
}

function extensionVerdict(name: string): 'text' | 'binary' | undefined {
  const base = (name.split(/[\\/]/).pop() ?? '').toLowerCase();
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1) : base; // "Makefile", "Dockerfile": the whole name
  if (TEXT_EXTENSIONS.has(ext)) return 'text';
  if (BINARY_EXTENSIONS.has(ext)) return 'binary';
  return undefined;
}

/**
 * Binary or text: the MIME or the name decides when it says something (SVG is text), else the
 * bytes do — a NUL byte or a strict UTF-8 failure means binary.
 */
export async function classifyContent(bytes: Uint8Array, hint: { name?: string | undefined; mime?: string | undefined }): Promise<'text' | 'binary'> {
  const byMime = hint.mime ? mimeVerdict(hint.mime) : undefined;
  if (byMime) return byMime;
  const byName = hint.name ? extensionVerdict(hint.name) : undefined;
  if (byName) return byName;
  return bytesLookBinary(bytes) ? 'binary' : 'text';
}

function bytesLookBinary(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/** The signature of binary a server decoded as UTF-8: many U+FFFD in a long field. */
export function mangledBinary(text: string): { chars: number; replacements: number } | undefined {
  if (text.length < MANGLED_MIN_CHARS) return undefined;
  let replacements = 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) replacements++;
  return replacements >= MANGLED_MIN_REPLACEMENTS ? { chars: text.length, replacements } : undefined;
}

export function utf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** What replaces binary a server decoded as text: the bytes are gone, so say how to get them. */
export function mangledNotice(m: { chars: number; replacements: number }): string {
  return (
    `[content dropped: the server returned binary data decoded as text (${m.chars} characters, ${m.replacements} U+FFFD); ` +
    'the bytes are unrecoverable — fetch the file another way, e.g. its download URL or a tool that returns it as an image or blob]'
  );
}

/**
 * The mangled-binary guard for any text result (server-filesystem's read_text_file on a JPEG
 * put 100,072 U+FFFD in a context). JSON keeps its shape: only the mangled string fields go;
 * other text goes whole. Answers undefined when nothing is mangled (the common case, one scan).
 */
export function dropMangled(text: string): { text: string; dropped: { field: string; chars: number; replacements: number }[] } | undefined {
  const whole = mangledBinary(text);
  if (!whole) return undefined;
  const dropped: { field: string; chars: number; replacements: number }[] = [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { text: mangledNotice(whole), dropped: [{ field: '', ...whole }] };
  }
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      const m = mangledBinary(value);
      if (!m) return value;
      dropped.push({ field: path, ...m });
      return mangledNotice(m);
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, path ? `${path}.${i}` : String(i)));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]));
    }
    return value;
  };
  const cleaned = walk(json, '');
  // Many short mangled strings add up without one crossing the threshold: drop the whole text.
  if (dropped.length === 0) return { text: mangledNotice(whole), dropped: [{ field: '', ...whole }] };
  return { text: JSON.stringify(cleaned), dropped };
}
