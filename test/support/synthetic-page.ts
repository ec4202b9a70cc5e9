/** A distinct, extractable news page per index (300 words; no two share a story). */
export function syntheticPage(i: number): string {
  const words = Array.from({ length: 300 }, (_, k) => `w${i}x${(k * 7919 + i * 104729) % 997}`).join(" ");
  return `<!doctype html><html lang="en"><head><title>Story number ${i}</title>
<meta property="article:published_time" content="2026-11-30T10:00:00Z"></head>
<body><article><h1>Story number ${i}</h1><p>${words}</p></article></body></html>`;
}
