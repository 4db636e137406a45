// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', '.build-*/', 'bench-results/', 'test-results/', 'node_modules/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The server uses its libraries and Node through what they document: an upgrade must not
    // break it silently (docs/contributing.md, "Documented behaviour only").
    files: ['server/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.type="Identifier"][property.name=/^_/]',
          message: 'A field whose name starts with an underscore is a library internal: use what it documents.',
        },
        {
          selector: 'MemberExpression[property.type="Literal"][property.value=/^_/]',
          message: 'A field whose name starts with an underscore is a library internal: use what it documents.',
        },
        {
          selector: 'TSAsExpression[expression.type="TSAsExpression"]',
          message: 'A cast through another type makes a library type what it is not.',
        },
        {
          selector: 'MemberExpression[property.name="symbols"]',
          message: "A library's internal symbols are for its own implementers.",
        },
        {
          selector:
            'CallExpression[callee.property.name="setFlagsFromString"], CallExpression[callee.name="setFlagsFromString"]',
          message: "A V8 flag set at run time may behave unpredictably: put it on the image's node command line.",
        },
        {
          selector: 'Literal[value=/ fn$/]',
          message: "Express's compiled settings (' fn') are not documented.",
        },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'req',
          property: 'fresh',
          message:
            "req.fresh answers a browser's no-cache validation in full: use isNotModified (server/http/not-modified.ts)",
        },
      ],
    },
  },
  {
    // Tests reach into parsed JSON and rewrite content files on purpose.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
