/**
 * File types the `grep` tool accepts, as globs. Both search engines use this one table (ripgrep
 * through `--type-add`), so a type means the same files with and without ripgrep.
 */
export const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ['*.c', '*.h'],
  cpp: ['*.cpp', '*.cc', '*.cxx', '*.c++', '*.hpp', '*.hh', '*.hxx', '*.h++', '*.h'],
  cs: ['*.cs'],
  css: ['*.css', '*.scss', '*.sass', '*.less'],
  go: ['*.go'],
  html: ['*.html', '*.htm', '*.xhtml'],
  java: ['*.java'],
  js: ['*.js', '*.jsx', '*.mjs', '*.cjs', '*.vue'],
  json: ['*.json', '*.jsonc', '*.json5'],
  kotlin: ['*.kt', '*.kts'],
  md: ['*.md', '*.markdown', '*.mdx'],
  php: ['*.php'],
  py: ['*.py', '*.pyi'],
  rb: ['*.rb', '*.rake', 'Gemfile'],
  rust: ['*.rs'],
  sh: ['*.sh', '*.bash', '*.zsh', '*.ksh'],
  sql: ['*.sql'],
  swift: ['*.swift'],
  toml: ['*.toml'],
  ts: ['*.ts', '*.tsx', '*.mts', '*.cts'],
  txt: ['*.txt'],
  xml: ['*.xml', '*.xsd', '*.xsl', '*.svg'],
  yaml: ['*.yaml', '*.yml'],
};
