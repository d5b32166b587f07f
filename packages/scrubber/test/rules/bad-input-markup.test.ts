import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

const fake = createFakeSource();
const scrubber = createScrubber();
const secret = () => `${fake.chars(ALPHABETS.alnum, 14)}7`;

// Credentials in XML configuration a tool reads or prints: Maven's settings.xml, a SOAP request
// with a WS-Security UsernameToken, Java's properties XML, .NET's appSettings, Spring beans.

describe('credentials in XML', () => {
  it('redacts the credentials of real XML configuration files and keeps the rest', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-xml-'));
    const [maven, soap, entry, appSetting, bean] = [secret(), secret(), secret(), secret(), secret()];
    try {
      const files: Record<string, string> = {
        'settings.xml': `<settings>\n  <servers>\n    <server>\n      <id>nexus</id>\n      <username>deploy</username>\n      <password>${maven}</password>\n    </server>\n  </servers>\n</settings>\n`,
        'request.xml': `<soapenv:Header><wsse:Security><wsse:UsernameToken><wsse:Username>svc</wsse:Username><wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText">${soap}</wsse:Password></wsse:UsernameToken></wsse:Security></soapenv:Header>`,
        'app.properties.xml': `<properties>\n<entry key="db.user">app</entry>\n<entry key="db.password">${entry}</entry>\n</properties>\n`,
        'web.config': `<appSettings>\n  <add key="Theme" value="dark" />\n  <add key="StripeApiKey" value="${appSetting}" />\n</appSettings>\n`,
        'beans.xml': `<bean id="ds" class="org.apache.commons.dbcp2.BasicDataSource">\n  <property name="username" value="app"/>\n  <property name="password" value='${bean}'/>\n</bean>\n`,
      };
      let all = '';
      for (const [name, content] of Object.entries(files)) {
        await writeFile(join(directory, name), content);
        all += await readFile(join(directory, name), 'utf8');
      }
      const scrubbed = scrubber.scrubText(all);
      for (const value of [maven, soap, entry, appSetting, bean]) {
        expect(all).toContain(value);
        expect(scrubbed).not.toContain(value);
      }
      expect(scrubbed).toContain('<password>[REDACTED:password]</password>');
      expect(scrubbed).toContain('#PasswordText">[REDACTED:password]</wsse:Password>');
      expect(scrubbed).toContain('<entry key="db.password">[REDACTED:password]</entry>');
      expect(scrubbed).toContain('<add key="StripeApiKey" value="[REDACTED:api_key]" />');
      expect(scrubbed).toContain(`<property name="password" value='[REDACTED:password]'/>`);
      // What is not a credential stays.
      for (const kept of ['<username>deploy</username>', '<entry key="db.user">app</entry>', 'value="dark"'])
        expect(scrubbed).toContain(kept);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('leaves labels, placeholders, flags and other elements alone', () => {
    for (const text of [
      '<label for="password">Password</label>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Maven property reference is the sample
      '<password>${env.NEXUS_PASSWORD}</password>',
      '<th>Token</th><td>expires in 3600 s</td>',
      '<secret>true</secret>',
      '<password></password>',
      '<passwordPolicy>strict-mode</passwordPolicy>',
      '<token><value>nested</value></token>',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });

  it('redacts CDATA values and upper-case, mixed-case and namespaced tags, and keeps the markup', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scrubber-xml-'));
    const values = [secret(), `${secret()}&"']`, secret(), secret(), secret(), secret()];
    const [plain, special, crlf, upper, mixed, namespaced] = values;
    try {
      const path = join(directory, 'settings.xml');
      await writeFile(
        path,
        [
          `<server><password><![CDATA[${plain}]]></password></server>`,
          `<Password><![CDATA[${special}]]></Password>`,
          `<password>\r\n  <![CDATA[${crlf}]]>\r\n</password>`,
          `<PASSWORD>${upper}</PASSWORD>`,
          `<ApiToken>${mixed}</ApiToken>`,
          `<ns:password xmlns:ns="urn:x">${namespaced}</ns:password>`,
        ].join('\n'),
      );
      const text = await readFile(path, 'utf8');
      const { text: scrubbed, findings } = scrubber.scrub(text);
      for (const value of values) expect(scrubbed).not.toContain(value);
      expect(findings).toHaveLength(values.length);
      expect(scrubbed).toContain('<server><password><![CDATA[[REDACTED:password]]]></password></server>');
      expect(scrubbed).toContain('<Password><![CDATA[[REDACTED:password]]]></Password>');
      expect(scrubbed).toContain('<PASSWORD>[REDACTED:password]</PASSWORD>');
      expect(scrubbed).toContain('<ns:password xmlns:ns="urn:x">[REDACTED:password]</ns:password>');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('redacts a value split over CDATA sections (how XML writers escape a ]]> inside it) whole', () => {
    const [head, tail] = [secret(), secret()];
    const text = `<password><![CDATA[${head}]]]]><![CDATA[>${tail}]]></password>`;
    const scrubbed = scrubber.scrubText(text);
    expect(scrubbed).not.toContain(head);
    expect(scrubbed).not.toContain(tail);
    expect(scrubbed).toBe('<password><![CDATA[[REDACTED:password]]]></password>');
  });

  it('leaves empty and placeholder CDATA and CDATA of other elements alone', () => {
    for (const text of [
      '<password><![CDATA[]]></password>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a property reference is the sample
      '<password><![CDATA[${DB_PASSWORD}]]></password>',
      '<script><![CDATA[var password = read();]]></script>',
      '<description><![CDATA[ends with ]]></description>',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });

  it('gives the same output streamed in small chunks', () => {
    const text = `<server>\n<password>${secret()}</password>\n</server>\n<add key="ApiKey" value="${secret()}"/>\n`;
    const stream = scrubber.createStreamScrubber();
    let out = '';
    for (let at = 0; at < text.length; at += 5) out += stream.write(text.slice(at, at + 5));
    const streamed = out + stream.flush();
    expect(streamed).toBe(scrubber.scrubText(text));
    expect(streamed).not.toMatch(/[A-Za-z0-9]{14}7/);
  });
});
