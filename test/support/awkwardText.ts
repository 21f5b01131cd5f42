/**
 * A text JSON must escape, or that tempts a hand-written encoder to: quotes, backslashes, control characters, DEL,
 * the line and paragraph separators, `</script>`, non-ASCII and astral characters. The tests of the JSON PostgreSQL
 * writes (test/store/*JsonSql.test.ts) hold its bytes to JSON.stringify's with it.
 */
export const AWKWARD_TEXT = 'Ünïcødé "quoted" \\back\\ \n\t\r\b\f \u0001\u001f \u007f \u2028\u2029 </script> 😀 日本';
