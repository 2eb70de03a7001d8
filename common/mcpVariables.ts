// Variables in MCP configs, as the clients users copy from write them:
//   ${env:VAR}            Cursor, VS Code
//   ${VAR} ${VAR:-dflt}   Claude Code (the default when VAR is unset or empty)
//   ${userHome}           VS Code
//   ${input:id}           VS Code `inputs`: left in place here, answered once when the server starts
// An unset variable without a default is a problem on its field, never an empty string sent
// as, say, an Authorization header.

type Substitution = { text: string; inputs: string[]; problems: string[] };

const VARIABLE = /\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const VSCODE_ONLY = new Set(['workspaceFolder', 'workspaceFolderBasename', 'workspaceRoot', 'file', 'cwd', 'pathSeparator', 'execPath']);

/**
 * Substitutes `${…}` in one string. With `env` undefined (checking only, e.g. in the renderer)
 * unresolvable variables become a placeholder and are not problems.
 */
export function substituteVariables(text: string, env: Readonly<Record<string, string | undefined>> | undefined): Substitution {
  const inputs: string[] = [];
  const problems: string[] = [];
  if (!text.includes('${')) return { text, inputs, problems };
  const out = text.replace(VARIABLE, (whole, body: string, offset: number) => {
    if (body.startsWith('input:')) {
      const id = body.slice('input:'.length);
      if (!id) problems.push('"${input:}" needs an input id');
      else inputs.push(id);
      return whole;
    }
    const scoped = body.startsWith('env:') ? body.slice('env:'.length) : body;
    const cut = scoped.indexOf(':-');
    const name = cut === -1 ? scoped : scoped.slice(0, cut);
    const fallback = cut === -1 ? undefined : scoped.slice(cut + 2);
    if (!NAME.test(name)) {
      problems.push(`"${whole}" is not a variable Glance understands: use \${VAR}, \${env:VAR} or \${VAR:-default}`);
      return whole;
    }
    const value = name === 'userHome' && !body.startsWith('env:') ? (env?.HOME ?? env?.USERPROFILE) : env?.[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    if (env === undefined) return offset === 0 ? 'http://placeholder.invalid' : 'placeholder';
    if (VSCODE_ONLY.has(name)) problems.push(`"${whole}" is a VS Code variable Glance cannot fill in; write the value itself`);
    else problems.push(`${whole} is not set in the environment (give it a value, or a default: \${${name}:-value})`);
    return whole;
  });
  return { text: out, inputs, problems };
}

/** Every `${input:id}` in a string. */
export function inputIdsIn(text: string): string[] {
  return [...text.matchAll(/\$\{input:([^}]+)\}/g)].map((m) => m[1] as string);
}

/** The environment variable the CLI reads for `${input:id}`: GLANCE_INPUT_<ID>. */
export function inputEnvName(id: string): string {
  return `GLANCE_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** Replaces `${input:id}` in every string of a value (deeply), from `values`. */
export function substituteInputs<T>(value: T, values: ReadonlyMap<string, string>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.includes('${input:') ? v.replace(/\$\{input:([^}]+)\}/g, (whole, id: string) => values.get(id) ?? whole) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** A copy with `${input:…}` replaced by a placeholder, so a URL holding one can be validated. */
export function withInputPlaceholders<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(/\$\{input:[^}]+\}/g, (_w, offset: number) => (offset === 0 ? 'http://placeholder.invalid' : 'placeholder'));
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
