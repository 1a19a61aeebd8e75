import {describe, expect, it} from 'vitest';
import {makeTargets} from '../../../source/project/make-targets.js';

describe('makeTargets', () => {
  it('keeps explicit targets and skips special targets, pattern rules and variables', () => {
    const makefile = [
      'SHELL := /bin/bash',
      'VERSION ?= dev',
      'LDFLAGS += -s',
      'GIT_SHA != git rev-parse HEAD',
      'export GOFLAGS = -mod=mod',
      '.PHONY: build test',
      '.DEFAULT_GOAL := build',
      'build: ## build the binary',
      '\tgo build -o bin/app .',
      'test lint: build',
      '\tgo test ./...',
      'bin/%: cmd/%/main.go',
      '\tgo build -o $@ ./cmd/$*',
      '$(BIN): deps',
      'release: VERSION = 1.0',
      'release:: build',
      '\t./release.sh \\',
      '\t  --fast: yes',
      'ifeq ($(CI),true)',
      'ci: test',
      'endif',
      'docs/site: docs/index.md',
      'build: more-deps',
    ].join('\n');
    expect(makeTargets(makefile)).toEqual(['build', 'test', 'lint', 'release', 'ci', 'docs/site']);
  });

  it('ignores define bodies and continued lines', () => {
    const makefile = 'define USAGE\nhelp: shows help\nendef\nSOURCES = a.c \\\n  b.c: c.c\nall: app\n';
    expect(makeTargets(makefile)).toEqual(['all']);
  });
});
