// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import {createTypeScriptImportResolver} from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import globals from 'globals';

/**
 * The folder table of docs/architecture.md, enforced: each runtime folder may import only
 * what its column allows.
 * @param {string[]} patterns
 * @param {string} message
 */
function forbid(patterns, message) {
  return forbidGroups({group: patterns, message});
}

/**
 * @param {...({group: string[], message: string, caseSensitive?: boolean} | {regex: string, message: string})} groups
 */
function forbidGroups(...groups) {
  return {'no-restricted-imports': ['error', {patterns: groups}]};
}

/**
 * One direction inside src/core, top to bottom: the transport (http) → the MCP server and call
 * pipeline (mcp) → the tools and what their handlers use (tools) → the features tools drive
 * (webmcp, heap, telemetry) → the inspector hub → the browser → the ground (config, files).
 * A folder imports only folders on lower rows; Engine.ts, above them all, wires them together.
 */
const CORE_LAYERS = [
  ['http'],
  ['mcp'],
  ['tools'],
  ['webmcp', 'heap', 'telemetry', 'recordings'],
  ['inspector'],
  ['browser'],
  ['config', 'files'],
];

const CORE_OUTSIDE = [
  'electron',
  'react',
  'react-dom',
  '**/main/**',
  '**/renderer/**',
  '**/preload/**',
  '**/cli/**',
  '**/injected/**',
];
const CORE_OUTSIDE_MESSAGE =
  'src/core is plain Node: never electron, react, a shell folder, or src/injected (its code reaches the page as strings: injectedSources.generated.ts).';

/** One config block per core folder: the outside rule plus every folder on its row or above. */
function coreLayerConfigs() {
  return CORE_LAYERS.flatMap((row, rank) =>
    row.map(folder => {
      const above = CORE_LAYERS.slice(0, rank + 1)
        .flat()
        .filter(other => other !== folder);
      const below = CORE_LAYERS.slice(rank + 1).flat();
      return {
        files: [`src/core/${folder}/**`],
        rules: forbidGroups(
          {group: CORE_OUTSIDE, message: CORE_OUTSIDE_MESSAGE},
          {
            group: ['**/Engine.js', ...above.map(name => `**/${name}/**`)],
            caseSensitive: true,
            message: `${
              below.length > 0
                ? `src/core/${folder} may import only ${below.join(', ')} inside core`
                : `src/core/${folder} is the ground: it imports no other core folder`
            } (one direction: ${CORE_LAYERS.map(names => names.join('|')).join(' → ')}).`,
          },
        ),
      };
    }),
  );
}

const INJECTED_MESSAGE =
  'src/injected runs in the page: a script imports only its helpers in ./common/, a helper only ./ (no packages, no Node, no engine code).';

/**
 * Small rooms: no source file over 500 lines, no function over 80. The one escape is a disable
 * comment that says why (`// eslint-disable-next-line max-lines-per-function -- <reason>` right
 * above the function, as its opening comment); a disable without a reason fails lint.
 */
const ROOM_LIMITS = {
  'max-lines': ['error', {max: 500}],
  'max-lines-per-function': ['error', {max: 80}],
};

const NODE_BUILTINS = [
  'node:*',
  'fs',
  'path',
  'os',
  'http',
  'https',
  'net',
  'child_process',
  'crypto',
];

/**
 * One direction inside the renderer (src/renderer/src), top to bottom: the frame (app: the tabs,
 * the panel registry, bootstrap) → the panels (features/<panel>, which never import each other) →
 * what every panel gets from the frame (context: the services and their hooks, panel slots) → the
 * engine mirror and UI state (store) → the ground (ui: shared pieces and the panel ids; connection:
 * the transport, which only the frame and main.tsx see). A folder imports only folders on lower
 * rows; main.tsx, above them all, wires them together. The table is in src/renderer/README.md.
 */
const RENDERER_LAYERS = [['app'], ['features'], ['context'], ['store'], ['ui', 'connection']];

const RENDERER_OUTSIDE = {
  group: [
    ...NODE_BUILTINS,
    'electron',
    'puppeteer-core',
    '**/core/**',
    '**/main/**',
    '**/preload/**',
    '**/cli/**',
  ],
  message:
    'src/renderer talks to the engine only through InspectorConnection; import shared and UI libraries only.',
};

/** Ground folders only the frame (app/) and main.tsx import: panels never see the transport. */
const RENDERER_FRAME_ONLY = ['connection'];

/**
 * What a folder may not import besides the rows above it.
 * @type {Record<string, ({group: string[], message: string, caseSensitive?: boolean} | {regex: string, message: string})[]>}
 */
const RENDERER_EXTRA = {
  features: [
    {
      // `../name/…` from features/<panel>/ is another panel.
      regex: '^\\.\\./(?!\\.)',
      message:
        'A panel never imports another panel: share through store/, ui/ or a panel slot (context/panelSlots.tsx) filled in app/panels.tsx.',
    },
  ],
  store: [
    {
      group: ['react', 'react-dom'],
      message: 'store/ is plain TypeScript fed by app/bootstrap.ts: no React.',
    },
  ],
  connection: [
    {
      group: ['react', 'react-dom'],
      message: 'connection/ is the transport: no React.',
    },
  ],
};

/** One config block per renderer folder: the outside rule plus every folder on its row or above. */
function rendererLayerConfigs() {
  const direction = RENDERER_LAYERS.map(names => names.join('|')).join(' → ');
  return RENDERER_LAYERS.flatMap((row, rank) =>
    row.map(folder => {
      const frameOnly = rank === 0 ? [] : RENDERER_FRAME_ONLY;
      const above = [
        ...RENDERER_LAYERS.slice(0, rank + 1)
          .flat()
          .filter(other => other !== folder),
        ...frameOnly.filter(other => other !== folder && !row.includes(other)),
      ];
      const below = RENDERER_LAYERS.slice(rank + 1)
        .flat()
        .filter(other => !frameOnly.includes(other));
      return {
        files: [`src/renderer/src/${folder}/**`],
        rules: forbidGroups(
          RENDERER_OUTSIDE,
          ...(above.length > 0
            ? [
                {
                  group: ['**/main.js', ...above.map(name => `**/${name}/**`)],
                  caseSensitive: true,
                  message: `${
                    below.length > 0
                      ? `src/renderer/src/${folder} may import only ${below.join(', ')} inside the renderer`
                      : `src/renderer/src/${folder} is the ground: it imports no other renderer folder`
                  } (one direction: ${direction}).`,
                },
              ]
            : []),
          ...(RENDERER_EXTRA[folder] ?? []),
        ),
      };
    }),
  );
}

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'scratch/**',
      'coverage/**',
      'bench/results/**',
      'test/fixtures/**/*.js',
      'test/fixtures/**/*.jsx',
    ],
  },
  {linterOptions: {reportUnusedDisableDirectives: 'error'}},
  js.configs.recommended,
  comments.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: [
          './tsconfig.node.json',
          './tsconfig.web.json',
          './tsconfig.electron.json',
          './tsconfig.test.json',
          './tsconfig.injected.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: {'import-x': importX},
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': {'@typescript-eslint/parser': ['.ts', '.tsx']},
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [
            './tsconfig.node.json',
            './tsconfig.web.json',
            './tsconfig.electron.json',
            './tsconfig.test.json',
            './tsconfig.injected.json',
          ],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always', {null: 'ignore'}],
      'no-console': 'off',
      '@typescript-eslint/consistent-type-assertions': ['error', {assertionStyle: 'never'}],
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {allowNumber: true, allowBoolean: true},
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        {argsIgnorePattern: '^_', varsIgnorePattern: '^_'},
      ],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/consistent-type-definitions': 'off',
      '@typescript-eslint/ban-ts-comment': [
        'error',
        {'ts-expect-error': true, 'ts-ignore': true, 'ts-nocheck': true},
      ],
      'import-x/no-cycle': ['error', {maxDepth: Infinity}],
      // A switch over a union names every member: a member added later (an event, a status) fails
      // lint where it is not handled, even behind a default. A default is for open types only.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        {
          considerDefaultExhaustiveForUnions: false,
          allowDefaultCaseForExhaustiveSwitch: false,
          requireDefaultForNonUnion: true,
        },
      ],
      '@eslint-community/eslint-comments/disable-enable-pair': ['error', {allowWholeFile: true}],
      '@eslint-community/eslint-comments/require-description': [
        'error',
        {ignore: ['eslint-enable']},
      ],
    },
  },
  {
    files: ['src/**', 'scripts/**'],
    // The generated module holds the page scripts as strings: its length is theirs.
    ignores: ['src/core/browser/injectedSources.generated.ts'],
    rules: ROOM_LIMITS,
  },
  {
    // One narrowing helper for the whole tree: copies drift (src/shared/values.ts holds it).
    files: ['src/**'],
    ignores: ['src/shared/values.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            ':matches(FunctionDeclaration, VariableDeclarator[init.type=/Function/])[id.name=/^(isRecord|errorText)$/]',
          message: 'Import isRecord / errorText from src/shared/values.ts instead of a copy.',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {...globals.node},
    },
  },
  {
    files: ['src/shared/**'],
    rules: forbid(
      [
        ...NODE_BUILTINS,
        'electron',
        'react',
        'react-dom',
        'puppeteer-core',
        '**/core/**',
        '**/main/**',
        '**/renderer/**',
        '**/preload/**',
        '**/cli/**',
      ],
      'src/shared is the protocol: no node, electron, react or other runtime folders.',
    ),
  },
  {
    files: ['src/core/**'],
    rules: forbid(CORE_OUTSIDE, CORE_OUTSIDE_MESSAGE),
  },
  ...coreLayerConfigs(),
  {
    files: ['src/cli/**'],
    rules: forbid(
      ['electron', 'react', 'react-dom', '**/main/**', '**/renderer/**', '**/preload/**'],
      'src/cli may import core and shared only.',
    ),
  },
  {
    files: ['src/main/**'],
    rules: forbid(
      ['react', 'react-dom', '**/renderer/**', '**/preload/**', '**/cli/**'],
      'src/main may import core, shared and electron only.',
    ),
  },
  {
    files: ['src/preload/**'],
    rules: forbid(
      [
        ...NODE_BUILTINS,
        'react',
        'react-dom',
        '**/core/**',
        '**/main/**',
        '**/renderer/**',
        '**/cli/**',
      ],
      'src/preload is the bridge: shared and electron only.',
    ),
  },
  {
    files: ['src/renderer/**'],
    languageOptions: {globals: {...globals.browser}},
    plugins: {'react-hooks': reactHooks},
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbidGroups(RENDERER_OUTSIDE),
    },
  },
  ...rendererLayerConfigs(),
  {
    // Code that runs in the page: DOM and the language only, bundled per script at build time
    // (scripts/build-injected.mjs). It imports nothing but its own folder: a script imports its
    // helpers in common/, a helper only other helpers.
    files: ['src/injected/**'],
    languageOptions: {globals: {...globals.browser}},
    rules: forbidGroups({regex: '^(?!\\./(?:common/)?[\\w.-]+$)', message: INJECTED_MESSAGE}),
  },
  {
    files: ['src/injected/common/**'],
    rules: forbidGroups({regex: '^(?!\\./[\\w.-]+$)', message: INJECTED_MESSAGE}),
  },
  {
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/consistent-type-assertions': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
    },
  },
);
