// Hash routes, so the same built page serves every window (Electron loads index.html#ask for
// the ask window) and a reload keeps the place:
//   #/ or empty      the chat, a new conversation
//   #/c/<id>         the chat on a stored conversation
//   #/settings       settings (optionally #/settings/<section>)
//   #ask             the compact ask window (also #/ask)
export type Route = { name: 'chat'; conversationId?: string } | { name: 'settings'; section?: string } | { name: 'ask' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '').split(/[?&]/)[0] ?? '';
  const [head, arg] = path.split('/');
  if (head === 'ask') return { name: 'ask' };
  if (head === 'settings') return arg ? { name: 'settings', section: decodeURIComponent(arg) } : { name: 'settings' };
  if (head === 'c' && arg && /^[A-Za-z0-9_-]{1,64}$/.test(arg)) return { name: 'chat', conversationId: arg };
  return { name: 'chat' };
}

export function routeHash(route: Route): string {
  switch (route.name) {
    case 'ask':
      return '#ask';
    case 'settings':
      return route.section ? `#/settings/${encodeURIComponent(route.section)}` : '#/settings';
    case 'chat':
      return route.conversationId ? `#/c/${route.conversationId}` : '#/';
  }
}

/** The Settings sections, in page order: the address (#/settings/<id>) and the heading. */
export const SETTINGS_PAGES: readonly (readonly [id: string, label: string])[] = [
  ['providers', 'Providers'],
  ['vision', 'Vision'],
  ['images', 'Image sizes'],
  ['privacy', 'Privacy'],
  ['limits', 'Limits'],
  ['hotkey', 'Screenshot hotkey'],
  ['mcp', 'MCP servers'],
  ['tools', 'Tool approval'],
];
