// How much of a conversation a window asks for first. A window opening on a long conversation
// shows its end; it asks for the last turns only (more than fill a tall window and the list's
// overscan above it), paints them, then asks for the whole conversation (chatSlice.ts). For
// bench:ui's 1,000 messages the first answer is ~5% of the whole: main validates and sends it,
// and the page parses and replays it, in a few milliseconds instead of ~100.
export const FIRST_SCREEN_TURNS = 24;
