/**
 * The portal's one stylesheet: system fonts, contrast above WCAG AA, a visible focus ring for keyboard users. A table
 * wider than a phone's screen scrolls within its section, which keeps the page itself at the screen's width.
 */
export const PORTAL_CSS = `
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; background: #f6f7f9; }
header.top { display: flex; justify-content: space-between; align-items: center; gap: 1rem; padding: 0.75rem 1.5rem; background: #12355b; color: #fff; }
header.top a { color: #fff; }
.brand { margin: 0; font-weight: 700; }
.tenant { font-weight: 400; }
nav { display: flex; gap: 1rem; align-items: center; }
main { max-width: 60rem; margin: 1.5rem auto; padding: 0 1.5rem 3rem; }
h1 { font-size: 1.75rem; margin: 0 0 1rem; }
h2 { font-size: 1.25rem; margin: 0 0 0.75rem; }
section { background: #fff; border: 1px solid #d0d5dc; border-radius: 6px; padding: 1rem 1.25rem; margin-bottom: 1.5rem; overflow-x: auto; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 0.5rem; border-bottom: 1px solid #d0d5dc; vertical-align: top; }
th { font-weight: 600; }
.field { margin-bottom: 1rem; }
label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.choice label { display: inline; font-weight: 400; margin-left: 0.35rem; }
fieldset.choices { border: 1px solid #d0d5dc; border-radius: 4px; margin: 0 0 1rem; padding: 0.5rem 0.75rem; }
legend { font-weight: 600; padding: 0 0.25rem; }
input[type=text], input[type=email], input[type=url], input[type=password] { width: 100%; max-width: 32rem; padding: 0.5rem; border: 1px solid #5c6670; border-radius: 4px; font: inherit; }
textarea { width: 100%; max-width: 40rem; padding: 0.5rem; border: 1px solid #5c6670; border-radius: 4px; font: 0.85rem/1.4 ui-monospace, Menlo, Consolas, monospace; }
input[aria-invalid=true], textarea[aria-invalid=true] { border: 2px solid #a4000f; }
.hint { margin: 0 0 0.25rem; color: #4a535c; font-size: 0.9rem; }
.error { margin: 0.25rem 0 0; color: #a4000f; font-weight: 600; }
button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 4px; border: 1px solid #12355b; background: #12355b; color: #fff; cursor: pointer; }
button.danger { background: #fff; color: #a4000f; border-color: #a4000f; }
header.top button { background: #fff; color: #12355b; border-color: #fff; }
a { color: #0b4f9c; }
:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
form.inline { display: inline; }
.notice { background: #e7f4ea; border: 1px solid #1e6b34; color: #14461f; padding: 0.75rem 1rem; border-radius: 4px; margin-bottom: 1rem; }
.secret { font-family: ui-monospace, Menlo, Consolas, monospace; background: #fff8e1; border: 1px solid #8a6d00; padding: 0.75rem; word-break: break-all; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; word-break: break-all; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; }
form + .actions { margin-top: 0.75rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.error-summary { border: 2px solid #a4000f; background: #fff; padding: 0.5rem 1rem; border-radius: 4px; margin-bottom: 1rem; }
dl { margin: 0; }
td { overflow-wrap: break-word; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.85rem; max-width: 28rem; margin: 0.25rem 0 0; }
summary { cursor: pointer; color: #0b4f9c; }
dt { font-weight: 600; }
dd { margin: 0 0 0.5rem; }
`;
