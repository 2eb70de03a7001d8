// Main checks settings with zod and names the field by its path; people read the label they
// typed into instead: "Largest file (MB) must be a number", not
// "patch.limits.ingestBytes: Invalid input: expected number, received null".

/** The form's label for a settings path, and the unit it shows numbers in (bytes → MB…). */
const LABELS: Record<string, [label: string, scale: number]> = {
  'limits.ingestBytes': ['Largest file (MB)', 1024 * 1024],
  'limits.maxInputPixels': ['Most pixels (megapixels)', 1e6],
  'limits.maxImageDeliveriesPerTurn': ['Tool images shown per turn', 1],
  'limits.maxImagesPerRequest': ['Images per request', 1],
  'limits.fetchTimeoutMs': ['Image download timeout (s)', 1000],
  'limits.maxStepsPerTurn': ['Model steps per turn', 1],
  'attachments.retentionDays': ['Days to keep attachments', 1],
  'providers.ollama.host': ['Ollama host', 1],
  hotkey: ['Shortcut', 1],
};

function plainRule(message: string, scale = 1): string {
  const unit = (n: string) => String(Number((Number(n) / scale).toPrecision(3)));
  if (/expected number, received (null|NaN|nan|undefined|string)/i.test(message)) return 'must be a number';
  if (/expected int|expected an integer/i.test(message)) return 'must be a whole number';
  const small = /Too small: expected number to be >(=?)\s*(-?[\d.]+)/i.exec(message);
  if (small) return small[1] ? `must be at least ${unit(small[2]!)}` : `must be more than ${unit(small[2]!)}`;
  const big = /Too big: expected number to be <(=?)\s*(-?[\d.]+)/i.exec(message);
  if (big) return big[1] ? `must be at most ${unit(big[2]!)}` : `must be less than ${unit(big[2]!)}`;
  return message.replace(/^Invalid input:\s*/i, '');
}

/** The Providers form's fields of an OpenAI-compatible endpoint. */
const ENDPOINT_FIELDS: Record<string, string> = { name: 'Name', baseUrl: 'Base URL', apiKeyRef: 'Key name' };

/** `providers.openai.0.baseUrl` → "Base URL of endpoint 1 must be …"; undefined for other paths. */
function endpointIssue(path: string, message: string): string | undefined {
  if (path === 'providers.openai') return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
  const at = /^providers\.openai\.(\d+)\.(\w+)$/.exec(path);
  const field = at ? ENDPOINT_FIELDS[at[2]!] : undefined;
  if (!at || !field) return undefined;
  const rule = plainRule(message);
  const what = `${field} of endpoint ${Number(at[1]) + 1}`;
  if (/^must /.test(rule)) return `${what} ${rule}.`;
  if (/^letters/.test(rule)) return `${what} may use only ${rule}.`;
  return `${what}: ${rule}${/[.!?]$/.test(rule) ? '' : '.'}`;
}

/** One "path: message" issue, or several joined by "; ", in the words of the form. */
export function plainSettingsError(message: string): string {
  return message
    .replace(/^settings:set:\s*/, '')
    .split(/;\s+/)
    .map((issue) => {
      const at = /^([\w.]+):\s*(.*)$/.exec(issue);
      if (!at) return issue;
      const path = at[1]!.replace(/^patch\./, '');
      const known = LABELS[path];
      const endpoint = known ? undefined : endpointIssue(path, at[2]!);
      if (endpoint) return endpoint;
      return known ? `${known[0]} ${plainRule(at[2]!, known[1])}.` : `${path}: ${plainRule(at[2]!)}`;
    })
    .join(' ');
}
