// Renders resources/icon.svg to the PNG icons the app and its installers use (committed; run again
// only when the SVG changes): `node resources/make-icons.mjs`. electron-builder derives the macOS
// .icns and Windows .ico from icon.png (1024 px); Linux takes the sized PNGs in icons/.
import fs from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const here = import.meta.dirname;
const svg = fs.readFileSync(path.join(here, 'icon.svg'), 'utf8');
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];

const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
});
try {
  const page = await browser.newPage();
  const render = async size => {
    await page.setViewport({width: size, height: size, deviceScaleFactor: 1});
    const html = `<!doctype html><html><body style="margin:0;background:transparent">${svg.replace(
      '<svg ',
      `<svg width="${size}" height="${size}" `,
    )}</body></html>`;
    await page.setContent(html);
    return page.screenshot({omitBackground: true, clip: {x: 0, y: 0, width: size, height: size}});
  };
  fs.mkdirSync(path.join(here, 'icons'), {recursive: true});
  for (const size of LINUX_SIZES) {
    fs.writeFileSync(path.join(here, 'icons', `${size}x${size}.png`), await render(size));
  }
  fs.writeFileSync(path.join(here, 'icon.png'), await render(1024));
  process.stderr.write(`Wrote resources/icon.png and resources/icons/{${LINUX_SIZES.join(',')}}\n`);
} finally {
  await browser.close();
}
