import { describe, expect, it } from 'vitest';
import { committedBrandColor, DEFAULT_BRAND_COLOR, isValidHexColor, normalizeBrandColor, readableForeground } from './use-brand-color';
import { parseTheme } from './use-theme';

describe('normalizeBrandColor', () => {
  it('defaults to #10b981', () => {
    expect(DEFAULT_BRAND_COLOR).toBe('#10b981');
    expect(normalizeBrandColor(null)).toBe('#10b981');
    expect(normalizeBrandColor(undefined)).toBe('#10b981');
    expect(normalizeBrandColor('')).toBe('#10b981');
  });

  it.each(['not-a-colour', '#12345', '#gggggg', '10b981', 'red', '#1234567', 'rgb(0,0,0)', '#10b981; color: red'])(
    'falls back to the default for %j',
    (value) => {
      expect(isValidHexColor(value)).toBe(false);
      expect(normalizeBrandColor(value)).toBe(DEFAULT_BRAND_COLOR);
    },
  );

  it('keeps a valid colour in lower-case #rrggbb form', () => {
    expect(normalizeBrandColor('#6366F1')).toBe('#6366f1');
    expect(normalizeBrandColor(' #0ea5e9 ')).toBe('#0ea5e9');
    expect(normalizeBrandColor('#F0a')).toBe('#ff00aa');
  });
});

describe('committedBrandColor', () => {
  it('sets a valid typed colour', () => {
    expect(committedBrandColor(' #6366F1 ')).toEqual({ color: '#6366f1', problem: null });
    expect(committedBrandColor('#abc')).toEqual({ color: '#aabbcc', problem: null });
  });

  it('falls back to the default hue for anything else, and says the colour is not valid', () => {
    expect(committedBrandColor('#63')).toEqual({
      color: DEFAULT_BRAND_COLOR,
      problem: '"#63" is not a valid colour, so the default colour is used. Enter a hex colour such as #10b981.',
    });
    expect(committedBrandColor('red').color).toBe(DEFAULT_BRAND_COLOR);
    expect(committedBrandColor('  ').problem).toBe('An empty value is not a valid colour, so the default colour is used. Enter a hex colour such as #10b981.');
  });
});

describe('readableForeground', () => {
  it('puts white text on dark colours and dark text on pale ones', () => {
    expect(readableForeground('#10b981')).toBe('#ffffff');
    expect(readableForeground('#1e3a8a')).toBe('#ffffff');
    expect(readableForeground('#000000')).toBe('#ffffff');
    expect(readableForeground('#fde047')).toBe('#09090b');
    expect(readableForeground('#ffffff')).toBe('#09090b');
  });
});

describe('parseTheme', () => {
  it('is light unless dark is stored', () => {
    expect(parseTheme(null)).toBe('light');
    expect(parseTheme('blue')).toBe('light');
    expect(parseTheme('light')).toBe('light');
    expect(parseTheme('dark')).toBe('dark');
  });
});
