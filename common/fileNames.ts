// The one place names are made safe: for files Glance writes (captures, screenshots) and for
// names it only shows (a dropped file's name). Pure string work, so every layer can use it.

/** Adds an extension when the name has none (a name's own extension is kept). */
export function withExtension(name: string, ext: string | undefined): string {
  return ext && !/\.[A-Za-z0-9]{1,10}$/.test(name) ? `${name}.${ext}` : name;
}

/** The last segment of a URI's path, percent-decoded ("fixture://blobs/a%20b.png" → "a b.png"). */
export function nameFromUri(uri: string): string | undefined {
  const path = uri.replace(/[?#].*$/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  return segment || undefined;
}

export const IMAGE_NAME = /\.(png|jpe?g|gif|webp|bmp|tiff?|avif|hei[cf])$/i;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * A file name that is safe to create inside a folder: only its last path segment (after
 * percent-decoding), ASCII letters, digits, "._-", no leading dots, no reserved device names,
 * at most 120 characters with the extension kept. Nothing usable left → `fallback`.
 */
export function safeFileName(raw: string | undefined, fallback: string): string {
  let name = raw ?? '';
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(name); i++) {
    try {
      name = decodeURIComponent(name);
    } catch {
      break;
    }
  }
  name = name.split(/[\\/]/).pop() ?? '';
  name = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // "café" → "cafe"
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[._\s-]+/, '') // no hidden files, no "..", no option-looking names
    .replace(/[.\s]+$/, '');
  if (WINDOWS_RESERVED.test(name)) name = `_${name}`;
  if (name.length > 120) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 11 ? name.slice(dot) : '';
    name = name.slice(0, 120 - ext.length) + ext;
  }
  if (!/[A-Za-z0-9]/.test(name)) return fallback === raw ? 'capture' : safeFileName(fallback, 'capture');
  return name;
}

/** A file name for display only: no folders, no control characters, bounded length. */
export function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return clean || 'image';
}

/** "screenshot-<display>.png", "screenshot-<display>-region.png": a capture's file name. */
export function screenshotName(displayLabel: string, region = false): string {
  const label = safeFileName(displayLabel, 'display');
  return `screenshot-${label}${region ? '-region' : ''}.png`;
}
