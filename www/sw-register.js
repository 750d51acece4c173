// Registers the service worker (sw.js) and, when a new version of the app has been
// installed next to the running one, says so with a button to reload into it. Nothing
// reloads by itself: the user may be mid-conversation.
//
// ENABLED is false in the file as committed, so `trunk serve` (live reload) never gets a
// worker; tools/precache.sh turns it on in release builds only.
(() => {
  const ENABLED = false; // precache: enabled
  const sw = navigator.serviceWorker;
  if (!ENABLED || !sw) return;

  const TEXT = {
    en: ['A new version is ready.', 'Reload'],
    ko: ['새 버전이 준비되었습니다.', '새로 고침'],
  };
  let reloading = false;

  // The worker that waits to take over: ask it to, then reload once it controls the page.
  const offer = (worker) => {
    if (!worker || !sw.controller || document.getElementById('update-notice')) return;
    // The app keeps <html lang> on the language the user reads.
    const [message, action] = TEXT[document.documentElement.lang === 'ko' ? 'ko' : 'en'];
    const notice = document.createElement('div');
    notice.id = 'update-notice';
    notice.className = 'update-notice';
    notice.setAttribute('role', 'status');
    const text = document.createElement('span');
    text.textContent = message;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button primary';
    button.textContent = action;
    button.addEventListener('click', () => {
      reloading = true;
      button.disabled = true;
      worker.postMessage('skip-waiting');
    });
    notice.append(text, button);
    document.body.append(notice);
  };

  sw.addEventListener('controllerchange', () => {
    if (reloading) location.reload();
  });

  // Registers the worker and offers a new version that waits (when: at the end).
  const register = () =>
    sw
      .register('sw.js', { updateViaCache: 'none' })
      .then((registration) => {
        offer(registration.waiting);
        registration.addEventListener('updatefound', () => {
          const worker = registration.installing;
          worker.addEventListener('statechange', () => {
            if (worker.state === 'installed') offer(worker);
          });
        });
        // A tab left open for days looks for a new version when it is shown again.
        document.addEventListener('visibilitychange', () => {
          if (document.visibilityState === 'visible') registration.update().catch(() => {});
        });
      })
      .catch((error) => console.warn('deliberate: no offline copy:', error));
  // Only once the app is usable (its `app-ready` mark): installing the worker fetches the
  // whole build again, and on a first visit that download competed with the app's own wasm
  // (the page's `load` event comes before the wasm has arrived).
  const ready = () => performance.getEntriesByName('app-ready').length > 0;
  if (ready()) register();
  else if (typeof PerformanceObserver === 'function') {
    const watch = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.name === 'app-ready')) {
        watch.disconnect();
        register();
      }
    });
    watch.observe({ type: 'mark', buffered: true });
  } else addEventListener('load', register);
})();
