// ESLint and its plugins, resolved from this folder's own node_modules (see package.json here and
// ADR 0016): the root eslint.config.js imports them through this file.
export { default as js } from "@eslint/js";
export { defineConfig } from "eslint/config";
export { ESLint } from "eslint";
export { default as tseslint } from "typescript-eslint";
export { default as reactHooks } from "eslint-plugin-react-hooks";
export { importX } from "eslint-plugin-import-x";
export { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
export { default as globals } from "globals";
