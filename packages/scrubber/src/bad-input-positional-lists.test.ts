import { describe, it } from 'vitest';
import { expectForms, expectLeftAlone, password } from '../test/command-lines.js';

// nmcli and rabbitmqctl as argument lists, and nmcli's field lists, which name a secret property
// without setting it.

describe('positional passwords in argument lists and nmcli field lists', () => {
  it('redacts rabbitmqctl passwords in an argument list', () => {
    expectForms([
      [`["rabbitmqctl", "add_user", "deploy", "${password}"]`, '["rabbitmqctl", "add_user", "deploy", "#"]'],
      [
        `['rabbitmqctl', 'authenticate_user', 'deploy', '${password}']`,
        "['rabbitmqctl', 'authenticate_user', 'deploy', '#']",
      ],
    ]);
  });

  it('leaves the word after a property named by -f/--fields or -g/--get-values alone', () => {
    expectLeftAlone([
      'nmcli -f 802-11-wireless-security.psk connection show Home',
      'nmcli --fields wifi-sec.psk connection show Office',
      'nmcli -s -g 802-11-wireless-security.psk connection show Home',
      'nmcli --get-values=802-1x.password connection show corp',
    ]);
  });
});
