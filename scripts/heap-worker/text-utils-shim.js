// The loader needs only TextUtils.BalancedJSONTokenizer; the full text_utils module pulls in
// CodeMirror and marked.
export * as TextUtils from 'chrome-devtools-frontend/front_end/core/text_utils/TextUtils.js';
