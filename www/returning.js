// The one script of its own in returning.html, the page the service worker keeps and answers a
// visit of the app's address with (tools/returning_page.mjs inlines it there in place of
// index.html's static shell). The app's files are on the device, so the app itself is the
// first thing painted; index.html's script before the shell has set the theme and language.
// If the app never stands (a kept file gone while offline), a note says so, as the shell's
// does; a wasm trap is crash.js's.
(() => {
  const notLoaded = (error) => {
    if (document.querySelector(".app, #boot-note") || (self.WebAssembly && error instanceof WebAssembly.RuntimeError)) {
      return;
    }
    const note = document.createElement("p");
    note.id = "boot-note";
    note.className = "boot-note";
    note.setAttribute("role", "alert");
    note.textContent =
      document.documentElement.lang === "ko"
        ? "앱을 불러오지 못했습니다. 연결을 확인하고 페이지를 다시 불러오세요."
        : "The app could not load. Check the connection and reload the page.";
    document.body.append(note);
  };
  addEventListener("error", (event) => notLoaded(event.error));
  addEventListener("unhandledrejection", (event) => notLoaded(event.reason));
  addEventListener("error", (event) => event.target.type === "module" && notLoaded(), true);
})();
