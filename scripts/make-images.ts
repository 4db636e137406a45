/**
 * Draws the sample images shipped in public/images: a hero slide and a card picture per
 * studio (evening skylines of the four cities, stage lights above) and the icon. The logo is drawn
 * by the page itself with the event's name (client/components/DrawnLogo.tsx).
 * Run with `npm run images` after changing a design; the results are committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { PUBLIC_DIR } from '../server/config/paths.ts';

interface Scene {
  id: string;
  sky: [string, string, string];
  glow: string;
  ground: string;
  skyline: string;
}

const W = 2400;
const H = 1350;

const scenes: Scene[] = [
  {
    id: 'munich',
    sky: ['#0b1d4d', '#2c4fa3', '#f0a35e'],
    glow: '#ffd27a',
    ground: '#071233',
    // Alps, then the twin domed towers of the cathedral and a row of roofs.
    skyline: `
      <path d="M0 980 L300 760 L520 900 L760 700 L1000 880 L1250 720 L1500 890 L1800 690 L2100 870 L2400 760 L2400 1350 L0 1350Z" fill="#32457f" opacity="0.7"/>
      <path d="M0 1100 H560 V1010 H640 V1060 H760 V980 H820 V1040 H940 V1100 Z" fill="#0d1c47"/>
      <rect x="1040" y="700" width="120" height="420" fill="#0d1c47"/><rect x="1240" y="700" width="120" height="420" fill="#0d1c47"/>
      <ellipse cx="1100" cy="700" rx="70" ry="95" fill="#0d1c47"/><ellipse cx="1300" cy="700" rx="70" ry="95" fill="#0d1c47"/>
      <rect x="1160" y="840" width="80" height="280" fill="#0d1c47"/>
      <path d="M1360 1100 V960 H1500 V1010 H1640 V940 H1720 V1020 H1900 V990 H2050 V1100 Z" fill="#0d1c47"/>`,
  },
  {
    id: 'marbella',
    sky: ['#3a1d5c', '#d9576b', '#ffc36b'],
    glow: '#ffe29a',
    ground: '#0c2a4a',
    // Sun over the sea, palms and the white town on the hill.
    skyline: `
      <circle cx="1200" cy="930" r="210" fill="#ffd98a" opacity="0.95"/>
      <rect x="0" y="960" width="2400" height="390" fill="#17416b"/>
      <g stroke="#ffd98a" stroke-width="10" opacity="0.5"><path d="M980 1010 H1420"/><path d="M1040 1060 H1360"/><path d="M1100 1110 H1300"/></g>
      <path d="M1600 960 L1750 860 H1900 L2050 800 H2250 L2400 840 V960 Z" fill="#2a1b3f"/>
      <g fill="#1c0f2b">
        <path d="M380 1350 C370 1150 360 1000 330 860 L350 855 C385 1000 400 1150 410 1350 Z"/>
        <path d="M335 860 C250 820 180 840 120 900 C210 860 270 860 335 870 Z M335 860 C330 760 400 720 470 720 C410 760 370 800 345 865 Z M340 862 C420 820 500 830 560 880 C480 860 420 860 340 868 Z M338 862 C280 790 220 780 170 790 C240 800 290 830 334 868 Z"/>
        <path d="M620 1350 C612 1180 600 1060 580 960 L598 956 C622 1060 636 1180 646 1350 Z"/>
        <path d="M584 960 C520 930 470 940 420 985 C490 955 540 955 584 968 Z M584 960 C584 890 640 860 700 862 C650 890 615 920 592 966 Z M588 962 C650 935 710 945 760 985 C700 965 650 962 588 968 Z"/>
      </g>`,
  },
  {
    id: 'vienna',
    sky: ['#1a1240', '#5b3c8c', '#e78a6e'],
    glow: '#ffc9a8',
    ground: '#100a2a',
    // The giant Ferris wheel and the cathedral spire.
    skyline: `
      <g transform="translate(700 760)" stroke="#140d33" fill="none">
        <circle r="300" stroke-width="18"/><circle r="270" stroke-width="6"/>
        <g stroke-width="6">${Array.from({ length: 15 }, (_, i) => `<path d="M0 0 L${Math.round(300 * Math.cos((i * Math.PI) / 7.5))} ${Math.round(300 * Math.sin((i * Math.PI) / 7.5))}"/>`).join('')}</g>
        <path d="M-40 0 L-160 560 M40 0 L160 560" stroke-width="22"/>
      </g>
      <g fill="#140d33">${Array.from({ length: 15 }, (_, i) => `<rect x="${700 + Math.round(300 * Math.cos((i * Math.PI) / 7.5)) - 22}" y="${760 + Math.round(300 * Math.sin((i * Math.PI) / 7.5)) - 14}" width="44" height="30" rx="6"/>`).join('')}</g>
      <path d="M1500 1350 V900 L1560 880 L1600 520 L1640 880 L1700 900 V1350 Z" fill="#140d33"/>
      <path d="M1200 1350 V1040 H1480 V1350 Z M1720 1350 V1000 H1900 V1060 H2100 V980 H2200 V1350 Z M0 1350 V1060 H420 V1350 Z" fill="#140d33"/>`,
  },
  {
    id: 'zurich',
    sky: ['#062a3a', '#1f6f8b', '#9fd3c7'],
    glow: '#d9f5ee',
    ground: '#04202c',
    // Mountains over the lake and the twin towers of the minster.
    skyline: `
      <path d="M0 900 L350 640 L560 800 L820 560 L1100 820 L1400 600 L1700 830 L2000 620 L2400 860 V1000 H0 Z" fill="#e9f6f3" opacity="0.55"/>
      <path d="M0 960 L300 820 L600 930 L900 800 L1300 940 L1700 820 L2100 930 L2400 860 V1000 H0 Z" fill="#2b6e7f"/>
      <rect x="0" y="1000" width="2400" height="350" fill="#0d4b5e"/>
      <g stroke="#d9f5ee" stroke-width="8" opacity="0.35"><path d="M300 1060 H900"/><path d="M1300 1110 H2000"/><path d="M600 1170 H1500"/></g>
      <g fill="#05283a">
        <path d="M1000 1000 V660 L1060 600 L1120 660 V1000 Z M1220 1000 V660 L1280 600 L1340 660 V1000 Z"/>
        <rect x="1110" y="800" width="120" height="200"/>
        <path d="M400 1000 V900 H560 V950 H700 V880 H820 V1000 Z M1460 1000 V920 H1600 V870 H1760 V940 H1900 V1000 Z"/>
      </g>`,
  },
];

function sceneSvg(scene: Scene): string {
  const beams = [-28, -12, 8, 24]
    .map(
      (angle, i) =>
        `<path d="M${600 + i * 400} 0 L${520 + i * 400} 0 L${560 + i * 400 + angle * 30} 1100 L${640 + i * 400 + angle * 30} 1100 Z" fill="url(#beam)" transform="rotate(${angle / 3} ${600 + i * 400} 0)"/>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${scene.sky[0]}"/><stop offset="0.55" stop-color="${scene.sky[1]}"/><stop offset="1" stop-color="${scene.sky[2]}"/>
    </linearGradient>
    <radialGradient id="glow" cx="0.5" cy="0.78" r="0.6"><stop offset="0" stop-color="${scene.glow}" stop-opacity="0.55"/><stop offset="1" stop-color="${scene.glow}" stop-opacity="0"/></radialGradient>
    <linearGradient id="beam" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#sky)"/>
  <rect width="${W}" height="${H}" fill="url(#glow)"/>
  ${beams}
  ${scene.skyline}
  <rect y="${H - 60}" width="${W}" height="60" fill="${scene.ground}"/>
</svg>`;
}

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="14" fill="#0a2a66"/>
  <circle cx="32" cy="32" r="20" fill="none" stroke="#f5b700" stroke-width="5"/>
  <path d="M14 37 H50" stroke="#fff" stroke-width="5" stroke-linecap="round"/>
  <path d="M22 29 a10 10 0 0 1 20 0" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"/>
</svg>
`;

const out = (...parts: string[]) => path.join(PUBLIC_DIR, 'images', ...parts);
mkdirSync(out('hero'), { recursive: true });
mkdirSync(out('studios'), { recursive: true });

for (const scene of scenes) {
  const svg = Buffer.from(sceneSvg(scene));
  for (const width of [800, 1600, 2400]) {
    await sharp(svg)
      .resize(width)
      .jpeg({ quality: 72, mozjpeg: true, progressive: true })
      .toFile(out('hero', `${scene.id}-${width}.jpg`));
  }
  // Card pictures: an 8:5 crop of the lower, busier part of the scene.
  for (const width of [480, 960]) {
    await sharp(svg)
      .extract({ left: 240, top: 150, width: 1920, height: 1200 })
      .resize(width, Math.round((width * 5) / 8))
      .jpeg({ quality: 74, mozjpeg: true, progressive: true })
      .toFile(out('studios', `${scene.id}-${width}.jpg`));
  }
}
writeFileSync(path.join(PUBLIC_DIR, 'favicon.svg'), FAVICON);
console.log('Images written to', out());
