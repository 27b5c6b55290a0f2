import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", "server/db/generated/**", "prisma/postgres/**", ".tmp/**", ".tmp-*", "**/*.scratch.ts", "data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  {
    // Plain Node scripts (the foreign agent a test spawns with `node`): Node's globals.
    files: ["**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", fetch: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly" } },
  },
  {
    // Domain code never imports the web framework or React (see ARCHITECTURE.md).
    files: ["server/**/*.ts"],
    ignores: ["server/routers/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["next", "next/*", "react", "react-dom", "@/components/*", "@/app/*"], message: "server/ is framework-free: keep Next.js and React at the edges (app/, components/)." }] }],
    },
  },
);
