// What the bundles give @puppeteer/browsers for `import {ProxyAgent} from 'proxy-agent'`. It only
// serves browser downloads (httpUtil), which this app never makes: it launches an installed
// Chromium. The real module brings a JavaScript engine for PAC files (quickjs, esprima, ast-types;
// about 1.4 MB) that every start would load and compile, about 60 ms before the first answer.
// A function, so `new ProxyAgent()` reaches the throw like a class would.
export function ProxyAgent() {
  throw new Error(
    'Downloading a browser is not part of MCP Browser Inspector: install Chromium or Chrome, or pass --executablePath.',
  );
}
