// Module resolution hook: 'electron' → the fake next to this file.
type Resolve = (specifier: string, context: unknown) => Promise<{ url: string; shortCircuit?: boolean }>;

export async function resolve(specifier: string, context: unknown, next: Resolve) {
  if (specifier === 'electron') return { url: new URL('./electron.ts', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}
