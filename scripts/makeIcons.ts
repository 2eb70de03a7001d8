// Renders the app's PNG icons from the vector sources in assets/ at build time, so the repo
// holds no binary images. Output (default dist/icons/, packaged with the app):
//   icon.png (1024: electron-builder derives .icns/.ico), linux/<n>x<n>.png, tray.png (+@2x),
//   trayTemplate.png (+@2x: macOS menu bar, tinted by the system).
// Usage: node scripts/makeIcons.ts [outDir]
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';

const root = fileURLToPath(new URL('..', import.meta.url));

async function render(svgFile: string, viewBox: number, size: number, outFile: string): Promise<void> {
  const svg = await readFile(join(root, 'assets', svgFile));
  // Rasterise at the target size (density scales the SVG's nominal size) rather than resampling.
  await sharp(svg, { density: (72 * size) / viewBox })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(outFile);
}

export async function makeIcons(outDir: string): Promise<string[]> {
  await mkdir(join(outDir, 'linux'), { recursive: true });
  const jobs: [string, number, number, string][] = [
    ['icon.svg', 1024, 1024, 'icon.png'],
    ...[16, 24, 32, 48, 64, 128, 256, 512].map((n): [string, number, number, string] => ['icon.svg', 1024, n, `linux/${n}x${n}.png`]),
    ['icon.svg', 1024, 32, 'tray.png'],
    ['icon.svg', 1024, 64, 'tray@2x.png'],
    ['tray.svg', 64, 16, 'trayTemplate.png'],
    ['tray.svg', 64, 32, 'trayTemplate@2x.png'],
  ];
  await Promise.all(jobs.map(([svg, box, size, out]) => render(svg, box, size, join(outDir, out))));
  return jobs.map(([, , , out]) => out);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outDir = process.argv[2] ?? join(root, 'dist', 'icons');
  const written = await makeIcons(outDir);
  console.log(`icons: ${written.length} files in ${outDir}`);
}
