//! Long conversations in the browser (issue 11): a chat of about 20 and about 2,000 messages,
//! played natively with no key, handed to the app as the journal an earlier build left in
//! localStorage (the app moves it into IndexedDB on first open), then measured on a reload:
//! the time to open it, the time to save one step, and keystroke to paint in the composer.

use serde_json::Value;

use crate::app::{AppPage, STEP};
use crate::webdriver::Error;

/// A no-key chat of `turns` user messages (each answered by the assistant with a card),
/// as its journal text and the number of messages it shows.
pub fn chat_journal(turns: usize) -> (String, usize) {
    let (session, journal) = deliberate::scenario::long_chat(turns);
    let text = journal.encode().expect("a journal encodes");
    (text, session.messages.len())
}

/// The native cost of an open's pieces: decoding the journal text and replaying it.
fn native_open(turns: usize) -> String {
    let (text, _) = chat_journal(turns);
    let t = std::time::Instant::now();
    let journal = deliberate::store::saved::Journal::decode(&text).expect("decodes");
    let decoded = t.elapsed();
    let t = std::time::Instant::now();
    let session = journal.replay();
    let replayed = t.elapsed();
    format!(
        "native: decode {:.1} ms, replay {:.1} ms ({} events, {} messages, {} KB of journal)",
        decoded.as_secs_f64() * 1e3,
        replayed.as_secs_f64() * 1e3,
        journal.events.len(),
        session.messages.len(),
        text.len() / 1024
    )
}

/// Median of `samples` (sorted in place); NaN when empty.
fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(|a, b| a.total_cmp(b));
    samples.get(samples.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Waits in the page until `count` messages are drawn (a long conversation draws its newest
/// rows first); the page's clock then (ms since the navigation started).
const MESSAGES_SHOWN: &str = "const want = arguments[0]; const done = arguments[arguments.length - 1]; \
     const tick = () => document.querySelectorAll('.messages .message').length >= want \
       ? done(performance.now()) : requestAnimationFrame(tick); tick();";

/// Types one character into the composer; ms from the input event to the next frame painted.
const KEYSTROKE: &str = "const done = arguments[arguments.length - 1]; \
     const area = document.querySelector('#composer-input'); const t0 = performance.now(); \
     area.value += 'x'; area.dispatchEvent(new Event('input', { bubbles: true })); \
     requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));";

/// True when the newest user message is `arguments[0]` and an answer follows it.
const ANSWERED: &str = "const rows = [...document.querySelectorAll('.messages .message')]; \
     const asked = rows.findLastIndex(r => r.classList.contains('user')); \
     return asked >= 0 && rows[asked].textContent.trim() === arguments[0] && asked < rows.length - 1;";

/// Clicks "show earlier messages"; ms from the click to the next frame painted with the rows
/// drawn (null when the whole conversation is drawn already).
const EARLIER: &str = "const done = arguments[arguments.length - 1]; \
     const button = document.querySelector('.messages .earlier'); if (!button) { done(null); return; } \
     const t0 = performance.now(); button.click(); \
     requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));";

/// The database's own floor on this machine: ms from the start of one read-write
/// transaction (a read and a write of one small record, as a step's save does) to the page
/// hearing of its commit, in a scratch database of the same page (deleted afterwards).
/// With no argument: five in a row, with nothing else running. With a question
/// (`arguments[0]`): one, started together with a step — the question is put in the
/// composer, the transaction begins, and Enter is dispatched in the same task (the step runs
/// and queues its own save in that handler): what any write begun with a step waits for.
const DATABASE_FLOOR: &str = "const done = arguments[arguments.length - 1]; \
     const question = typeof arguments[0] === 'string' ? arguments[0] : null; \
     const area = document.querySelector('#composer-input'); \
     const req = indexedDB.open('deliberate-bench-floor', 1); \
     req.onupgradeneeded = () => req.result.createObjectStore('s', { keyPath: 'id' }); \
     req.onerror = () => done(null); \
     req.onsuccess = () => { const db = req.result; const times = []; \
       const one = () => { if (times.length === (question ? 1 : 5)) { db.close(); \
           indexedDB.deleteDatabase('deliberate-bench-floor'); done(times); return; } \
         if (question) { area.value = question; area.dispatchEvent(new Event('input', { bubbles: true })); } \
         const t0 = performance.now(); const tx = db.transaction(['s'], 'readwrite'); const st = tx.objectStore('s'); \
         st.get('x'); st.put({ id: 'x', text: 'y'.repeat(300), n: times.length }); \
         tx.oncomplete = () => { times.push(performance.now() - t0); setTimeout(one, 20); }; \
         tx.onabort = () => done(null); \
         if (question) area.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true })); }; \
       one(); };";

/// ms from each of the last five saves' start to its mark `arguments[0]` (the end of the
/// write, or the write handed to the database).
const SAVE_SPANS: &str = "const s = performance.getEntriesByName('deliberate:save-start'); \
     const e = performance.getEntriesByName(arguments[0]); \
     return s.slice(-5).map(m => { const end = e.find(x => x.startTime >= m.startTime); \
       return end ? end.startTime - m.startTime : null; });";

/// The numbers in a script's array answer (none when it gave something else).
fn numbers(answer: &Value) -> Vec<f64> {
    answer.as_array().map(|a| a.iter().filter_map(Value::as_f64).collect()).unwrap_or_default()
}

/// Waits until the step asked with `question` is answered on the page. (A long
/// conversation draws a window of its newest rows, so the count of rows may stay the same:
/// the step is done when its answer follows the question.) Then until it is saved.
fn wait_answered(page: &AppPage, question: &str) -> Result<(), Error> {
    page.browser.wait_for(STEP, "the step's messages", |b| {
        let after = b.execute(ANSWERED, vec![Value::String(question.to_string())])?;
        Ok((after == Value::Bool(true)).then_some(()))
    })?;
    page.wait_saved()
}

/// Figures of one conversation size.
struct Figures {
    messages: usize,
    /// The rows drawn when it opened.
    shown: usize,
    /// Drawing the earlier rows on demand.
    earlier_ms: Option<f64>,
    open_ms: Vec<f64>,
    save_ms: Vec<f64>,
    /// The page's own part of each save: from its start to the write handed to the database.
    save_page_ms: Vec<f64>,
    /// The database floor (`DATABASE_FLOOR`), measured after the saves.
    floor_ms: Vec<f64>,
    /// The same transaction started with a step (`DATABASE_FLOOR` with a question).
    floor_with_step_ms: Vec<f64>,
    keystroke_ms: Vec<f64>,
    /// Where each open's time went: the page's marks (ms since the navigation started).
    open_marks: Vec<String>,
    /// Where each save's time went: the marks of its phases, ms from its start.
    save_marks: String,
}

/// The open's marks, in order, ms since the navigation started.
const OPEN_MARKS: &str = "return performance.getEntriesByType('mark')\
     .filter(m => m.name === 'app-ready' || m.name.startsWith('deliberate:open') || m.name === 'deliberate:rest-linked')\
     .map(m => m.name.replace('deliberate:', '') + ' ' + m.startTime.toFixed(0)).join(', ');";

/// Each of the last five saves' phases, ms from its start.
const SAVE_MARKS: &str =
    "const all = performance.getEntriesByType('mark').filter(m => m.name.startsWith('deliberate:save')); \
     const out = []; let t0 = null; let row = []; \
     for (const m of all) { if (m.name === 'deliberate:save-start') { if (row.length) out.push(row.join(' ')); \
       t0 = m.startTime; row = []; } else if (t0 !== null) row.push(m.name.replace('deliberate:save-', '') + ' ' \
       + (m.startTime - t0).toFixed(1)); } \
     if (row.length) out.push(row.join(' ')); return out.slice(-5).join(' | ');";

fn measure(turns: usize) -> Result<Figures, Error> {
    let (journal, messages) = chat_journal(turns);
    let page = AppPage::open("en-US")?;
    page.browser.execute(
        "localStorage.setItem('deliberate.session', arguments[0]); localStorage.removeItem('deliberate.current'); \
         return true;",
        vec![Value::String(journal)],
    )?;
    // The first reload moves the journal into the database; the later ones open it from there.
    page.browser.refresh()?;
    page.wait_saved()?;
    // Every message is on the page once two looks in a row count the same.
    let last = std::cell::Cell::new(usize::MAX);
    let shown = page.browser.wait_for(STEP, "the conversation shown", |b| {
        let n = b.find_all(".messages .message")?.len();
        Ok((n > 0 && n == last.replace(n)).then_some(n))
    })?;
    // A long conversation draws its newest rows first (and the rest as the user scrolls up).
    if shown == 0 || shown > messages {
        return Err(Error::Protocol(format!("{shown} of {messages} messages shown")));
    }
    let mut open_ms = Vec::new();
    let mut open_marks = Vec::new();
    for _ in 0..3 {
        page.browser.refresh()?;
        let at = page.browser.execute_async(MESSAGES_SHOWN, vec![Value::from(shown)])?.as_f64();
        open_ms.extend(at);
        page.wait_saved()?;
        let marks = page.browser.execute(OPEN_MARKS, vec![])?.to_string();
        open_marks.push(format!("{marks} → drawn {:.0}", at.unwrap_or(f64::NAN)));
    }
    let mut keystroke_ms = Vec::new();
    for _ in 0..15 {
        keystroke_ms.extend(page.browser.execute_async(KEYSTROKE, vec![])?.as_f64());
    }
    page.browser.execute("document.querySelector('#composer-input').value = ''; return true;", vec![])?;
    // Steps of the conversation: each save from its start to the write's commit.
    for i in 0..5 {
        let question = format!("One more question {i}: what else should I clean?");
        page.send(&question)?;
        wait_answered(&page, &question)?;
    }
    let save_ms = numbers(&page.browser.execute(SAVE_SPANS, vec![Value::from("deliberate:save-end")])?);
    let save_page_ms = numbers(&page.browser.execute(SAVE_SPANS, vec![Value::from("deliberate:save-queued")])?);
    let floor_ms = numbers(&page.browser.execute_async(DATABASE_FLOOR, vec![])?);
    let mut floor_with_step_ms = Vec::new();
    for i in 0..5 {
        let question = format!("And one more {i}: which folder is the largest?");
        floor_with_step_ms
            .extend(numbers(&page.browser.execute_async(DATABASE_FLOOR, vec![Value::from(question.as_str())])?));
        wait_answered(&page, &question)?;
    }
    let save_marks = page.browser.execute(SAVE_MARKS, vec![])?.to_string();
    let earlier_ms = page.browser.execute_async(EARLIER, vec![])?.as_f64();
    Ok(Figures {
        messages,
        shown,
        open_ms,
        save_ms,
        save_page_ms,
        floor_ms,
        floor_with_step_ms,
        keystroke_ms,
        open_marks,
        save_marks,
        earlier_ms,
    })
}

/// The bench's section: open, save and keystroke figures at about 20 and 2,000 messages.
pub fn report() -> String {
    let mut out = String::from(
        "## Long conversations (a no-key chat, opened from IndexedDB after a reload)  goals: save ≤ 5 ms \
         and flat, open 2,000 messages ≤ 300 ms, keystroke to paint at 2,000 / 20 ≤ 1.2\n\n",
    );
    let mut keystrokes = Vec::new();
    // About 20 and 2,000 messages: two a turn (the question and the card), and the
    // no-key assistant's introduction once.
    for turns in [9, 1000] {
        match measure(turns) {
            Ok(mut f) => {
                let key = median(&mut f.keystroke_ms);
                keystrokes.push(key);
                out.push_str(&format!(
                    "{} messages: open (navigation → the newest {} drawn) median {:.0} ms · save per step median \
                     {:.1} ms (n = {}) · keystroke → paint median {:.1} ms{}\n",
                    f.messages,
                    f.shown,
                    median(&mut f.open_ms),
                    median(&mut f.save_ms),
                    f.save_ms.len(),
                    key,
                    f.earlier_ms.map(|ms| format!(" · earlier rows drawn on demand: {ms:.0} ms")).unwrap_or_default()
                ));
                for marks in &f.open_marks {
                    out.push_str(&format!("  open marks: {marks}\n"));
                }
                out.push_str(&format!("  save marks: {}\n", f.save_marks));
                out.push_str(&format!(
                    "  save: the page's part (start → write handed to the database) median {:.1} ms; the \
                     database's floor (one read-write transaction of one small record, nothing else running) \
                     median {:.1} ms (n = {}); the same transaction started with a step is heard of after \
                     median {:.1} ms (n = {})\n",
                    median(&mut f.save_page_ms),
                    median(&mut f.floor_ms),
                    f.floor_ms.len(),
                    median(&mut f.floor_with_step_ms),
                    f.floor_with_step_ms.len()
                ));
                out.push_str(&format!("  {}\n", native_open(turns)));
            }
            Err(e) => out.push_str(&format!("{turns} turns: not measured ({e:?})\n")),
        }
    }
    if let [small, large] = keystrokes[..] {
        out.push_str(&format!("keystroke → paint ratio, long / short: {:.2}\n", large / small));
    }
    out.push('\n');
    out
}
