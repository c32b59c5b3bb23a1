async () => {
  // Measure once the fonts are in and laid out: a formula measured in a fallback font read
  // 2 px taller than its box on the first page of a walk.
  await document.fonts.ready;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const main = document.querySelector('[data-testid="stMain"]');
  const problems = [];
  if (!main) return ["no main"];
  const text = main.innerText;
  const at = text.indexOf("**");
  if (at >= 0) problems.push("literal ** near: " + JSON.stringify(text.slice(Math.max(0, at - 40), at + 40)));
  if (document.body.innerText.includes("Page not found")) problems.push("Page not found");
  // A display formula scrolls sideways, and so is cut off at its top and bottom when taller;
  // app/style.py pads it. Its style arrives with the script's first elements: wait for it.
  const formulas = [...main.querySelectorAll(".katex-display")];
  for (let i = 0; i < 40 && formulas.length && getComputedStyle(formulas[0]).paddingTop === "0px"; i++)
    await new Promise(r => setTimeout(r, 50));
  if (formulas.length && getComputedStyle(formulas[0]).paddingTop === "0px")
    problems.push("the formulas' padding (app/style.py) is not applied");
  for (const formula of formulas)
    if (formula.scrollHeight > formula.clientHeight + 1)
      problems.push(`formula cut off by ${formula.scrollHeight - formula.clientHeight}px: ${JSON.stringify(formula.textContent.slice(0, 40))}`);
  const charts = [...main.querySelectorAll('[data-testid="stVegaLiteChart"]')];
  const boxes = [];
  for (const chart of charts) {
    const graphic = chart.querySelector("canvas, svg.marks, svg");
    if (!graphic) continue;
    const g = graphic.getBoundingClientRect();
    if (g.width === 0 || g.height === 0) continue;
    const column = chart.closest('[data-testid="stColumn"]') || chart.closest('[data-testid="stMainBlockContainer"]') || main;
    const c = column.getBoundingClientRect();
    const title = (chart.closest('[data-testid="stVerticalBlock"]') || chart).innerText.slice(0, 60);
    if (g.right > c.right + 2 || g.left < c.left - 2)
      problems.push(`chart ${Math.round(g.width)}px wide overflows its column [${Math.round(c.left)}, ${Math.round(c.right)}] by ${Math.round(g.right - c.right)}px`);
    boxes.push(g);
  }
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 2 && h > 2) problems.push(`charts ${i} and ${j} overlap by ${Math.round(w)}×${Math.round(h)}px`);
    }
  return problems;
}
