// The crash banner when the wasm traps. The release build aborts on a panic at once (no
// panic hook runs: see release_env in ./dev), so the page itself notices the trap — a
// WebAssembly.RuntimeError thrown out of an event handler or a task — and says so, in the
// user's language, with a plain link that reloads the page without calling the wasm again.
// Development builds show the same banner from their panic hook (src/ui/panic_banner.rs);
// the texts here are that file's, and only one banner is ever shown.
(() => {
  const TEXT = {
    ko: ['문제가 생겼습니다. 대화는 저장되어 있습니다. 페이지를 다시 불러오세요.', '다시 불러오기'],
    en: ['Something went wrong. Your conversation is saved. Reload the page.', 'Reload'],
  };
  // The page keeps <html lang> on the language the user reads: index.html's shell (or
  // returning.html's script) sets it from the saved choice (else the browser's) before the
  // app, and the app after.
  const language = () => (document.documentElement.lang === 'ko' ? 'ko' : 'en');
  const show = () => {
    if (document.getElementById('panic-banner') || !document.body) return;
    const lang = language();
    const banner = document.createElement('div');
    banner.id = 'panic-banner';
    banner.setAttribute('role', 'alert');
    banner.setAttribute('lang', lang);
    banner.textContent = TEXT[lang][0];
    const link = document.createElement('a');
    link.setAttribute('href', '');
    link.textContent = TEXT[lang][1];
    banner.append(link);
    document.body.prepend(banner);
  };
  const isTrap = (error) => typeof WebAssembly === 'object' && error instanceof WebAssembly.RuntimeError;
  window.addEventListener('error', (event) => {
    if (isTrap(event.error)) show();
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (isTrap(event.reason)) show();
  });
})();
