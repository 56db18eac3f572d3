// The one module the workload editor (static/js/editor.js) imports: CodeMirror 6 with YAML,
// line numbers, history, lint diagnostics. Export only what editor.js uses, so esbuild can
// drop the rest. Rebuild with scripts/codemirror/build.sh after changing this file.
export { EditorState, EditorSelection, Compartment, Prec } from "@codemirror/state";
export {
  EditorView,
  keymap,
  lineNumbers,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  drawSelection,
  dropCursor,
  placeholder,
} from "@codemirror/view";
export { defaultKeymap, history, historyKeymap, indentMore, indentLess } from "@codemirror/commands";
export {
  indentUnit,
  indentOnInput,
  bracketMatching,
  syntaxHighlighting,
  foldGutter,
  foldKeymap,
} from "@codemirror/language";
export { classHighlighter } from "@lezer/highlight";
export { linter, lintGutter, lintKeymap, forceLinting, diagnosticCount } from "@codemirror/lint";
export { yaml } from "@codemirror/lang-yaml";
