// TextUtils imports ContentData for helpers the loader never calls; the real module drags in
// DevTools' Common (and with it i18n and colour parsing).
export const ContentData = {};
