import {describe, expect, it} from 'vitest';
import {literalRefusal} from '../../../source/net/address-policy.js';
import {classifyAddress, hostAddress, isThisHostAddress} from '../../../source/net/ip-address.js';

const hostOf = (url: string) => hostAddress(new URL(url).hostname);

describe('hostAddress', () => {
  it('reads every spelling of 127.0.0.1 in a URL as 127.0.0.1 (or its IPv6 form)', () => {
    for (const spelling of ['2130706433', '0x7f.1', '017700000001', '127.1', '0x7f000001', '127.0.0.1.', '0177.0.0.01']) {
      expect(hostOf(`http://${spelling}:8080/`), spelling).toBe('127.0.0.1');
    }
    expect(hostOf('http://[::ffff:127.0.0.1]/')).toBe('::ffff:7f00:1');
    expect(hostOf('http://[0:0:0:0:0:ffff:7f00:1]/')).toBe('::ffff:7f00:1');
  });

  it('reads hosts that did not come through URL too', () => {
    expect(hostAddress('2130706433')).toBe('127.0.0.1');
    expect(hostAddress('0x7f.1')).toBe('127.0.0.1');
    expect(hostAddress('0251.0376.0251.0376')).toBe('169.254.169.254');
  });

  it('is null for a name', () => {
    expect(hostAddress('example.com')).toBeNull();
    expect(hostAddress('localhost')).toBeNull();
    expect(hostAddress('1.2.3.example')).toBeNull();
  });
});

describe('classifyAddress', () => {
  it('puts link-local and metadata addresses in every spelling in link-local', () => {
    for (const address of [
      '169.254.169.254',
      '169.254.0.1',
      'fe80::1',
      'fe80::1%eth0',
      'febf::1',
      'fd00:ec2::254',
      'fd00:0ec2:0:0:0:0:0:0254',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
    ]) {
      expect(classifyAddress(address), address).toBe('link-local');
    }
  });

  it('puts loopback, private, unspecified and special ranges in private', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::7f00:1',
      '64:ff9b::a00:1',
      '2001::1',
      '192.0.2.1',
    ]) {
      expect(classifyAddress(address), address).toBe('private');
    }
  });

  it('puts the rest in public, IPv4 inside IPv6 included', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(classifyAddress(address), address).toBe('public');
    }
  });

  it('never calls something unreadable public', () => {
    expect(classifyAddress('not-an-address')).toBe('private');
  });
});

describe('literalRefusal', () => {
  it('refuses a metadata address however it is written, even when the user typed it', () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/',
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://0251.0376.0251.0376/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
    ]) {
      expect(literalRefusal(new URL(url), {allowPrivate: true})?.message, url).toMatch(/^refused .*: it is a link-local or cloud metadata address, which is never fetched$/);
    }
  });

  it('lets a typed loopback or private address through, and refuses it for a URL found at a public address', () => {
    for (const url of ['http://127.0.0.1:3000/', 'http://2130706433/', 'http://[::1]/', 'http://10.0.0.5/', 'http://[::ffff:127.0.0.1]/']) {
      expect(literalRefusal(new URL(url), {allowPrivate: true}), url).toBeNull();
      expect(literalRefusal(new URL(url), {allowPrivate: false})?.message, url).toMatch(/private or loopback address/);
    }
    expect(literalRefusal(new URL('http://example.com/'), {allowPrivate: false})).toBeNull();
  });
});

describe('isThisHostAddress', () => {
  it('is loopback and unspecified addresses in any spelling, IPv4 inside IPv6 included, and nothing else', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0.0.0.0', '::', '::ffff:127.0.0.1', '::ffff:7f00:1']) expect(isThisHostAddress(address), address).toBe(true);
    for (const address of ['10.0.0.1', '192.168.1.5', '169.254.169.254', 'fe80::1', '93.184.215.14', '2001:db8::1', 'not an address', '']) {
      expect(isThisHostAddress(address), address).toBe(false);
    }
  });
});
