// Tool names as people read them. The model sees `server__tool` (MCP) or a built-in's
// snake_case name; the card shows the server and a title (MCP annotations' `title` when main
// provides it, else the name in words).

const BUILT_IN: Record<string, string> = {
  screenshot_desktop: 'Screenshot of the desktop',
  zoom_image: 'Zoom into an image',
  read_text: 'Read text in an image',
  analyze_image: 'Describe an image',
  show_attachment: 'Show an image again',
  list_windows: 'List the open windows',
};

/** "everything__get_tiny_image" → { server: "everything", tool: "get_tiny_image" }. */
function splitToolName(name: string): { server?: string; tool: string } {
  const at = name.indexOf('__');
  return at > 0 ? { server: name.slice(0, at), tool: name.slice(at + 2) } : { tool: name };
}

/** "get_tiny_image" / "getTinyImage" → "Get tiny image". */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

/** The title a card shows: the MCP title if known, a built-in's own, else the tool's name in words. */
export function toolTitle(name: string, title?: string): string {
  if (title) return title;
  const { server, tool } = splitToolName(name);
  return server ? humanize(tool) : (BUILT_IN[tool] ?? humanize(tool));
}

/** "Everything" for an MCP server, "Glance" for a built-in. */
export function toolSource(name: string): string {
  const { server } = splitToolName(name);
  return server ? humanize(server) : 'Glance';
}

/**
 * How a tool is named to people and screen readers (architecture §11): its title, then who
 * provides it — "Known bar chart (fixture)", "Zoom into an image (Glance)". The provider is the
 * configured server name (the person chose it), never the server's own title; the title comes
 * from the server and is only words (white space collapsed, at most 80 characters).
 */
export function toolLabel(name: string, title?: string, server?: string): string {
  const words = toolTitle(name, title).replace(/\s+/g, ' ').trim();
  const short = words.length > 80 ? `${words.slice(0, 79)}…` : words;
  return `${short || name} (${server ?? toolSource(name)})`;
}
