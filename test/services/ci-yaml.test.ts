import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jobMatchesRef, jobsForRef, parseCiConfig, type CiConfig, type CiJob } from '../../src/services/ci/yaml/index';

/** The configuration, or a failure that shows the message. */
function config(text: string): CiConfig {
  const result = parseCiConfig(text);
  if (!result.ok) assert.fail(`expected a valid configuration, got: ${result.error}`);
  return result.config;
}

function error(text: string): string {
  const result = parseCiConfig(text);
  if (result.ok) assert.fail('expected a validation error, the configuration was accepted');
  return result.error;
}

function jobOf(text: string, name: string): CiJob {
  const found = config(text).jobs.find((j) => j.name === name);
  assert.ok(found, `no job ${name}`);
  return found;
}

// Reference §6.6: the fixture of 8.12's trigger and API specs.
const FIXTURE = `
image: ruby:2.1
services:
  - postgres

before_script:
  - gem install bundler
  - bundle install
  - bundle exec rake db:create

variables:
  DB_NAME: postgres

types:
  - test
  - deploy
  - notify

rspec:
  script: "rake spec"
  tags:
    - ruby
    - postgres
  only:
    - branches

spinach:
  script: "rake spinach"
  allow_failure: true
  tags:
    - ruby
    - mysql
  except:
    - tags

staging:
  variables:
    KEY1: value1
    KEY2: value2
  script: "cap deploy stating"
  type: deploy
  tags:
    - ruby
    - mysql
  except:
    - stable

production:
  variables:
    DB_NAME: mysql
  type: deploy
  script:
    - cap deploy production
    - cap notify
  tags:
    - ruby
    - mysql
  only:
    - master
    - /^deploy-.*$/

dockerhub:
  type: notify
  script: "curl http://dockerhub/URL"
  tags:
    - ruby
    - postgres
  only:
    - branches
`;

describe('the §6.6 fixture', () => {
  test('stages come from types; jobs keep file order with their stage', () => {
    const c = config(FIXTURE);
    assert.deepEqual(c.stages, ['test', 'deploy', 'notify']);
    assert.deepEqual(
      c.jobs.map((j) => [j.name, j.stage, j.stageIdx]),
      [
        ['rspec', 'test', 0],
        ['spinach', 'test', 0],
        ['staging', 'deploy', 1],
        ['production', 'deploy', 1],
        ['dockerhub', 'notify', 2],
      ],
    );
  });

  test('rspec is the §2.3.2 payload: commands, image, services, variables', () => {
    const rspec = jobOf(FIXTURE, 'rspec');
    assert.equal(rspec.commands, 'gem install bundler\nbundle install\nbundle exec rake db:create\nrake spec');
    assert.equal(rspec.image, 'ruby:2.1');
    assert.deepEqual(rspec.services, ['postgres']);
    assert.deepEqual(rspec.variables, [{ key: 'DB_NAME', value: 'postgres' }]);
    assert.deepEqual(rspec.tags, ['ruby', 'postgres']);
    assert.equal(rspec.allowFailure, false);
    assert.equal(rspec.when, 'on_success');
    assert.deepEqual(rspec.only, ['branches']);
    assert.equal(rspec.except, null);
  });

  test('job variables override the global ones of the same name, new keys follow', () => {
    assert.deepEqual(jobOf(FIXTURE, 'production').variables, [{ key: 'DB_NAME', value: 'mysql' }]);
    assert.deepEqual(jobOf(FIXTURE, 'staging').variables, [
      { key: 'DB_NAME', value: 'postgres' },
      { key: 'KEY1', value: 'value1' },
      { key: 'KEY2', value: 'value2' },
    ]);
    assert.equal(jobOf(FIXTURE, 'spinach').allowFailure, true);
  });

  test('triggered on master: 5 builds, 2 of them in the first stage (rspec and spinach)', () => {
    const builds = jobsForRef(config(FIXTURE).jobs, { ref: 'master', tag: false, trigger: true });
    assert.equal(builds.length, 5);
    assert.deepEqual(
      builds.filter((b) => b.stageIdx === 0).map((b) => b.name),
      ['rspec', 'spinach'],
    );
  });

  test('on a tag deploy-1: spinach (except tags), rspec and dockerhub (only branches) are left out', () => {
    const builds = jobsForRef(config(FIXTURE).jobs, { ref: 'deploy-1', tag: true, trigger: false });
    assert.deepEqual(
      builds.map((b) => b.name),
      ['staging', 'production'],
    );
  });
});

describe('defaults (§6.2, §6.3)', () => {
  test('stages default to build, test, deploy; a job defaults to stage test, when on_success', () => {
    const c = config('job:\n  script: make\n');
    assert.deepEqual(c.stages, ['build', 'test', 'deploy']);
    const [j] = c.jobs;
    assert.equal(j!.stage, 'test');
    assert.equal(j!.stageIdx, 1);
    assert.equal(j!.when, 'on_success');
    assert.equal(j!.allowFailure, false);
    assert.deepEqual(j!.tags, []);
    assert.deepEqual(j!.script, ['make']);
    assert.equal(j!.image, null);
    assert.deepEqual(j!.variables, []);
  });

  test('each configuration has its own default stages list', () => {
    config('j:\n  script: x\n').stages.push('mutated');
    assert.deepEqual(config('j:\n  script: x\n').stages, ['build', 'test', 'deploy']);
  });

  test('stages wins over types', () => {
    assert.deepEqual(config('stages: [a]\ntypes: [b]\nj:\n  stage: a\n  script: x\n').stages, ['a']);
  });

  test('stage wins over type', () => {
    assert.equal(jobOf('j:\n  stage: build\n  type: deploy\n  script: x\n', 'j').stage, 'build');
    assert.equal(jobOf('j:\n  type: deploy\n  script: x\n', 'j').stage, 'deploy');
  });

  test('script is not required: commands are the before_script alone, or empty', () => {
    assert.equal(jobOf('before_script: [a, b]\nj:\n  stage: test\n', 'j').commands, 'a\nb');
    assert.equal(jobOf('j:\n  stage: test\n', 'j').commands, '');
  });

  test("a job's key replaces the global one completely; absent, the global one is inherited", () => {
    const text = `
image: g
services: [gs]
before_script: [gb]
after_script: [ga]
cache: { key: gk, paths: [a] }
inherits:
  script: x
own:
  script: x
  image: j
  services: [js]
  before_script: [jb]
  after_script: [ja]
  cache: { untracked: true }
`;
    const inherits = jobOf(text, 'inherits');
    assert.deepEqual(
      [inherits.image, inherits.services, inherits.beforeScript, inherits.afterScript, inherits.cache],
      ['g', ['gs'], ['gb'], ['ga'], { key: 'gk', paths: ['a'] }],
    );
    const own = jobOf(text, 'own');
    assert.deepEqual(
      [own.image, own.services, own.beforeScript, own.afterScript, own.cache, own.commands],
      ['j', ['js'], ['jb'], ['ja'], { untracked: true }, 'jb\nx'],
    );
  });

  test('artifacts, environment, dependencies and when are kept as written', () => {
    const text = `
build:
  stage: build
  script: make
  artifacts:
    name: bin
    untracked: false
    paths: [out/]
    when: on_failure
    expire_in: 1 week
deploy:
  stage: deploy
  script: ship
  when: manual
  dependencies: [build]
  environment:
    name: production
    url: https://example.com
review:
  stage: deploy
  script: ship
  environment: review/app
`;
    assert.deepEqual(jobOf(text, 'build').artifacts, {
      name: 'bin',
      untracked: false,
      paths: ['out/'],
      when: 'on_failure',
      expire_in: '1 week',
    });
    const deploy = jobOf(text, 'deploy');
    assert.equal(deploy.when, 'manual');
    assert.deepEqual(deploy.dependencies, ['build']);
    assert.deepEqual(deploy.environment, { name: 'production', url: 'https://example.com' });
    assert.deepEqual(jobOf(text, 'review').environment, { name: 'review/app' });
  });
});

describe('hidden jobs and reserved keys (§6.3)', () => {
  test('keys starting with "." are not jobs', () => {
    const c = config('.template:\n  script: x\njob:\n  script: y\n');
    assert.deepEqual(
      c.jobs.map((j) => j.name),
      ['job'],
    );
  });

  test('a hidden job may hold anything that is not empty, even unknown keys', () => {
    assert.deepEqual(
      config('.t:\n  whatever: 1\n.u: [1]\n.v: text\njob:\n  script: y\n').jobs.map((j) => j.name),
      ['job'],
    );
    assert.equal(error('.t:\njob:\n  script: y\n'), "jobs:.t config can't be blank");
  });

  test('only hidden jobs: at least one visible job is required', () => {
    assert.equal(error('.t:\n  script: x\n'), 'jobs config should contain at least one visible job');
    assert.equal(error('image: ruby\n'), 'jobs config should contain at least one visible job');
  });

  test('the global keys are never jobs', () => {
    const c = config('image: a\nservices: [b]\nvariables: {A: b}\ncache: {key: k}\nstages: [test]\nj:\n  script: x\n');
    assert.deepEqual(
      c.jobs.map((j) => j.name),
      ['j'],
    );
  });
});

describe('YAML 1.1 as Psych read it (§6.1)', () => {
  test('anchors and << merge keys: a hidden template merged into jobs, own keys win', () => {
    const text = `
.job_template: &job_definition
  image: ruby:2.1
  services: [postgres, redis]
  script: [rake test]
test1:
  <<: *job_definition
  script: [rake test1]
test2:
  <<: *job_definition
`;
    const c = config(text);
    assert.deepEqual(
      c.jobs.map((j) => [j.name, j.image, j.services, j.script]),
      [
        ['test1', 'ruby:2.1', ['postgres', 'redis'], ['rake test1']],
        ['test2', 'ruby:2.1', ['postgres', 'redis'], ['rake test']],
      ],
    );
  });

  test('yes/no/on/off in any case are booleans', () => {
    for (const [word, value] of [
      ['yes', true],
      ['On', true],
      ['TRUE', true],
      ['no', false],
      ['OFF', false],
      ['False', false],
    ] as const) {
      assert.equal(jobOf(`j:\n  script: x\n  allow_failure: ${word}\n`, 'j').allowFailure, value, word);
    }
  });

  test('y and n are strings, as in Psych (not booleans, as in the YAML 1.1 spec)', () => {
    assert.equal(error('j:\n  script: x\n  allow_failure: y\n'), 'jobs:j allow failure should be a boolean value');
  });

  test('a boolean variable value is an error (yes is a boolean, not a string)', () => {
    assert.equal(error('variables:\n  DEBUG: yes\nj:\n  script: x\n'), 'variables config should be a hash of key value pairs');
    assert.equal(error('variables:\n  PORT: 5432\nj:\n  script: x\n'), 'variables config should be a hash of key value pairs');
    assert.deepEqual(config('variables:\n  DEBUG: "yes"\nj:\n  script: x\n').variables, [{ key: 'DEBUG', value: 'yes' }]);
  });

  test('a :symbol is a Ruby symbol: accepted where 8.12 takes a symbol, refused where it wants a string', () => {
    assert.deepEqual(config('variables:\n  A: :b\nj:\n  script: x\n').variables, [{ key: 'A', value: 'b' }]);
    assert.deepEqual(jobOf('j:\n  script: x\n  cache:\n    key: :k\n', 'j').cache, { key: 'k' });
  });

  test("cache:policy (later GitLab's, for forge runner) is kept only when given", () => {
    assert.deepEqual(jobOf('j:\n  script: x\n  cache:\n    key: k\n    policy: pull\n', 'j').cache, { key: 'k', policy: 'pull' });
    assert.deepEqual(jobOf('j:\n  script: x\n  cache:\n    paths: [a]\n', 'j').cache, { paths: ['a'] });
    assert.equal(error('j:\n  script: x\n  stage: :test\n'), 'jobs:j:stage config should be a string');
  });

  test('a syntax error is reported as Psych reports it: (<unknown>): … at line L column C', () => {
    assert.match(error('rspec: script: x\n'), /^\(<unknown>\): .+ at line 1 column \d+$/);
    assert.match(error('a: [1, 2\n'), /^\(<unknown>\): .+ at line \d+ column \d+$/);
  });

  test('an alias bomb is refused, not expanded', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]',
      'f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]',
      'g: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]',
    ].join('\n');
    assert.match(error(bomb), /^\(<unknown>\): too many aliases/);
  });

  test('a template merged into hundreds of jobs is not a bomb', () => {
    let text = '.t: &t\n  script: [make]\n  tags: [a, b]\n';
    for (let i = 0; i < 500; i++) text += `job${i}:\n  <<: *t\n`;
    assert.equal(config(text).jobs.length, 500);
  });

  test('an anchor redefined later: each alias takes the last one before it', () => {
    const text = 'variables:\n  A: &v one\n  B: *v\n  C: &v two\n  D: *v\nj:\n  script: x\n';
    assert.deepEqual(
      config(text).variables.map((v) => v.value),
      ['one', 'one', 'two', 'two'],
    );
  });

  test('tens of thousands of aliases of one anchor are each resolved once', () => {
    let text = '.t: &t {script: [make]}\n';
    for (let i = 0; i < 20_000; i++) text += `job${i}: *t\n`;
    const jobs = config(text).jobs;
    assert.equal(jobs.length, 20_000);
    assert.deepEqual(jobs[19_999]!.script, ['make']);
  });

  test('a recursive alias is refused', () => {
    assert.match(error('a: &a [x, *a]\nj:\n  script: x\n'), /^\(<unknown>\): too many aliases/);
  });

  test('an alias to no anchor (Psych raises BadAlias): Undefined error', () => {
    assert.equal(error('j:\n  <<: *nothing\n  script: x\n'), 'Undefined error');
  });

  test('nesting deep enough to exhaust the stack is an error, never a throw', () => {
    for (const text of ['['.repeat(50_000), `j:\n  script: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`]) {
      const result = parseCiConfig(text);
      assert.equal(result.ok, false);
    }
  });

  test('a date is a class safe_load refuses: Undefined error', () => {
    assert.equal(error('j:\n  script: x\n  variables:\n    DAY: 2016-09-22\n'), 'Undefined error');
  });

  test('a time is refused too; a date Psych does not read as one (month 13) stays a string', () => {
    assert.equal(error('j:\n  script: x\n  variables:\n    AT: 2016-09-22 10:00:00\n'), 'Undefined error');
    assert.deepEqual(jobOf('j:\n  script: x\n  variables:\n    AT: 2016-13-01\n', 'j').variables, [{ key: 'AT', value: '2016-13-01' }]);
  });

  test('digits with commas are an integer in Psych, so not a variable value', () => {
    assert.equal(error('variables:\n  VERSION: 1,2\nj:\n  script: x\n'), 'variables config should be a hash of key value pairs');
    assert.deepEqual(config('variables:\n  VERSION: "1,2"\nj:\n  script: x\n').variables, [{ key: 'VERSION', value: '1,2' }]);
  });

  test('a :symbol key is the same job name; a boolean key (on:) is not a symbol', () => {
    assert.deepEqual(
      config(':rspec:\n  script: x\n').jobs.map((j) => j.name),
      ['rspec'],
    );
    assert.equal(error('on:\n  script: x\n'), 'jobs:true name should be a symbol');
  });

  test('tags for classes safe_load refuses (Ruby objects, sets, ordered maps): Undefined error', () => {
    for (const value of ['!ruby/object:Foo {x: 1}', '!!set {a}', '!!omap [{a: 1}]']) {
      assert.equal(error(`j:\n  script: x\n  cache: ${value}\n`), 'Undefined error', value);
    }
  });

  test('!!binary is a string, as in Ruby; an unknown local tag is ignored', () => {
    assert.deepEqual(config('variables:\n  A: !!binary aGVsbG8=\nj:\n  script: x\n').variables, [{ key: 'A', value: 'hello' }]);
    assert.equal(jobOf('j:\n  script: !custom make\n', 'j').commands, 'make');
  });

  test('a repeated key: the last one wins, as in Psych', () => {
    assert.equal(jobOf('j:\n  script: a\n  script: b\n', 'j').commands, 'b');
  });
});

describe('§6.5 messages', () => {
  const cases: Array<[string, string, string]> = [
    ['a scalar document', 'just text', 'Invalid configuration format'],
    ['a list document', '- a\n- b\n', 'Invalid configuration format'],
    ['an empty document', '', 'Invalid configuration format'],
    ['a job that is not a hash', 'rspec: rake spec\n', 'jobs:rspec config should be a hash'],
    ['an empty job', 'rspec:\n', "jobs:rspec config can't be blank"],
    [
      'unknown job keys, lower-cased',
      'RSpec:\n  script: x\n  Coverage: /x/\n  resource_group: x\n',
      'jobs:rspec config contains unknown keys: coverage, resource_group',
    ],
    ['an empty job name', '"":\n  script: x\n', "jobs:job name can't be blank"],
    ['an integer job name', '10:\n  script: x\n', 'jobs:10 name should be a symbol'],
    ['tags not an array', 'j:\n  script: x\n  tags: ruby\n', 'jobs:j tags should be an array of strings'],
    ['allow_failure not a boolean', 'j:\n  script: x\n  allow_failure: "true"\n', 'jobs:j allow failure should be a boolean value'],
    ['an unknown when', 'j:\n  script: x\n  when: later\n', 'jobs:j when should be on_success, on_failure, always, manual or delayed'],
    ['dependencies not an array', 'j:\n  script: x\n  dependencies: build\n', 'jobs:j dependencies should be an array of strings'],
    ['script a number', 'j:\n  script: 1\n', 'jobs:j:script config should be a string or an array of strings'],
    ['script a hash', 'j:\n  script: {a: b}\n', 'jobs:j:script config should be a string or an array of strings'],
    ['type not a string', 'j:\n  script: x\n  type: [test]\n', 'jobs:j:type config should be a string'],
    ['stage not a string', 'j:\n  script: x\n  stage: 1\n', 'jobs:j:stage config should be a string'],
    ['global before_script a string', 'before_script: make\nj:\n  script: x\n', 'before_script config should be an array of strings'],
    ['job before_script a string', 'j:\n  script: x\n  before_script: make\n', 'jobs:j:before_script config should be an array of strings'],
    ['global after_script a string', 'after_script: make\nj:\n  script: x\n', 'after_script config should be an array of strings'],
    ['job after_script a string', 'j:\n  script: x\n  after_script: make\n', 'jobs:j:after_script config should be an array of strings'],
    ['global image a list', 'image: [a]\nj:\n  script: x\n', 'image config should be a string'],
    ['job image a list', 'j:\n  script: x\n  image: [a]\n', 'jobs:j:image config should be a string'],
    ['global services a string', 'services: pg\nj:\n  script: x\n', 'services config should be an array of strings'],
    ['job services a string', 'j:\n  script: x\n  services: pg\n', 'jobs:j:services config should be an array of strings'],
    ['stages a string', 'stages: build\nj:\n  script: x\n', 'stages config should be an array of strings'],
    ['global variables a list', 'variables: [A]\nj:\n  script: x\n', 'variables config should be a hash of key value pairs'],
    ['job variables a number', 'j:\n  script: x\n  variables:\n    A: 1\n', 'jobs:j:variables config should be a hash of key value pairs'],
    ['unknown cache key', 'cache:\n  key: a\n  Policy: pull\nj:\n  script: x\n', 'cache config contains unknown keys: policy'],
    ['cache key a list', 'cache:\n  key: [a]\nj:\n  script: x\n', 'cache:key config should be a string or symbol'],
    [
      "cache policy unknown (later GitLab's key and message)",
      'cache:\n  policy: fetch\nj:\n  script: x\n',
      'cache policy should be pull-push, push, or pull',
    ],
    [
      'job cache policy a list',
      'j:\n  script: x\n  cache:\n    policy: [pull]\n',
      'jobs:j:cache policy should be pull-push, push, or pull',
    ],
    ['cache untracked a string', 'cache:\n  untracked: "yes"\nj:\n  script: x\n', 'cache:untracked config should be a boolean value'],
    ['cache paths a string', 'cache:\n  paths: a\nj:\n  script: x\n', 'cache:paths config should be an array of strings'],
    ['job cache key a list', 'j:\n  script: x\n  cache:\n    key: [a]\n', 'jobs:j:cache:key config should be a string or symbol'],
    ['only a bare string', 'j:\n  script: x\n  only: master\n', 'jobs:j:only config should be an array of strings or regexps'],
    ['except a bad regexp', 'j:\n  script: x\n  except: ["/ma(ster/"]\n', 'jobs:j:except config should be an array of strings or regexps'],
    ['artifacts a list', 'j:\n  script: x\n  artifacts: [a]\n', 'jobs:j:artifacts config should be a hash'],
    ['unknown artifacts key', 'j:\n  script: x\n  artifacts:\n    expire: 1d\n', 'jobs:j:artifacts config contains unknown keys: expire'],
    ['artifacts name a number', 'j:\n  script: x\n  artifacts:\n    name: 1\n', 'jobs:j:artifacts name should be a string'],
    [
      'artifacts untracked a string',
      'j:\n  script: x\n  artifacts:\n    untracked: "no"\n',
      'jobs:j:artifacts untracked should be a boolean value',
    ],
    ['artifacts paths a string', 'j:\n  script: x\n  artifacts:\n    paths: out\n', 'jobs:j:artifacts paths should be an array of strings'],
    [
      'artifacts when manual',
      'j:\n  script: x\n  artifacts:\n    when: manual\n',
      'jobs:j:artifacts when should be on_success, on_failure or always',
    ],
    [
      'artifacts expire_in not a duration',
      'j:\n  script: x\n  artifacts:\n    expire_in: soon\n',
      'jobs:j:artifacts expire in should be a duration',
    ],
    ['environment a list', 'j:\n  script: x\n  environment: [a]\n', 'jobs:j:environment config should be a hash or a string'],
    ['environment without a name', 'j:\n  script: x\n  environment:\n    url: http://a\n', "jobs:j:environment name can't be blank"],
    [
      'environment name with a bad character',
      'j:\n  script: x\n  environment: "prod!"\n',
      "jobs:j:environment name can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces",
    ],
    [
      'unknown environment key',
      'j:\n  script: x\n  environment:\n    name: a\n    kind: b\n',
      'jobs:j:environment config contains unknown keys: kind',
    ],
    [
      'environment url not http(s)/ssh/git',
      'j:\n  script: x\n  environment:\n    name: a\n    url: ftp://a\n',
      'jobs:j:environment url must be a valid url',
    ],
    [
      'environment url too long',
      `j:\n  script: x\n  environment:\n    name: a\n    url: http://${'a'.repeat(250)}\n`,
      'jobs:j:environment url is too long (maximum is 255 characters)',
    ],
    [
      'a stage not in stages, job case kept',
      'RSpec:\n  script: x\n  stage: lint\n',
      'RSpec job: stage parameter should be build, test, deploy',
    ],
    [
      'custom stages without test and a job without stage',
      'stages: [build]\nrspec:\n  script: x\n',
      'rspec job: stage parameter should be build',
    ],
    ['an undefined dependency', 'j:\n  script: x\n  dependencies: [nope]\n', 'j job: undefined dependency: nope'],
    [
      'a dependency in the same stage',
      'a:\n  script: x\nb:\n  script: x\n  dependencies: [a]\n',
      'b job: dependency a is not defined in prior stages',
    ],
    ['a dependency on a hidden job', '.a:\n  script: x\nb:\n  script: x\n  dependencies: [.a]\n', 'b job: undefined dependency: .a'],
  ];
  for (const [what, text, message] of cases) {
    test(`${what}: ${message}`, () => assert.equal(error(text), message));
  }

  test('lower-casing is ASCII-only, as Ruby 2.3 String#downcase', () => {
    assert.equal(error('ÄRGER:\n  script: x\n  Foo: 1\n'), 'jobs:Ärger config contains unknown keys: foo');
  });

  test('global keys are checked before jobs', () => {
    assert.equal(error('j:\n  script: 1\nimage: [a]\n'), 'image config should be a string');
  });

  test("a job's own checks come before its entries", () => {
    assert.equal(error('j:\n  script: 1\n  tags: a\n'), 'jobs:j tags should be an array of strings');
  });

  test('structural checks come before the logical ones, and jobs are checked in file order', () => {
    assert.equal(error('a:\n  stage: nope\nb:\n  script: 1\n'), 'jobs:b:script config should be a string or an array of strings');
    assert.equal(error('a:\n  stage: nope\nb:\n  stage: nope2\n'), 'a job: stage parameter should be build, test, deploy');
  });

  test('durations that ChronicDuration reads are accepted', () => {
    for (const d of ['1 week', '3 mins 4 sec', '2h20min', '10', '1 day and 2 hours', '6 mos', '1:30:00']) {
      assert.equal(jobOf(`j:\n  script: x\n  artifacts:\n    expire_in: "${d}"\n`, 'j').artifacts?.expire_in, d, d);
    }
  });

  test('an unquoted 10 or 1:30:00 is a YAML 1.1 integer, not a duration string', () => {
    for (const d of ['10', '1:30:00']) {
      assert.equal(error(`j:\n  script: x\n  artifacts:\n    expire_in: ${d}\n`), 'jobs:j:artifacts expire in should be a duration', d);
    }
  });

  test('an environment name may use letters, digits, - _ / $ { } . and spaces', () => {
    assert.deepEqual(jobOf('j:\n  script: x\n  environment: "review/${CI_BUILD_REF_NAME} a.b-c_d"\n', 'j').environment, {
      name: 'review/${CI_BUILD_REF_NAME} a.b-c_d',
    });
  });
});

describe('only / except (§6.4)', () => {
  const branch = { ref: 'master', tag: false, trigger: false };
  const tag = { ref: 'v1.0', tag: true, trigger: false };
  const matches = (only: string[] | null, except: string[] | null, ctx: Parameters<typeof jobMatchesRef>[1]) =>
    jobMatchesRef({ only, except }, ctx);

  test('no policy: every ref', () => {
    assert.equal(matches(null, null, branch), true);
    assert.equal(matches([], [], tag), true);
  });

  test('branches matches non-tag pipelines, tags matches tag pipelines', () => {
    assert.equal(matches(['branches'], null, branch), true);
    assert.equal(matches(['branches'], null, tag), false);
    assert.equal(matches(['tags'], null, tag), true);
    assert.equal(matches(['tags'], null, branch), false);
  });

  test('triggers matches pipelines made by a trigger', () => {
    assert.equal(matches(['triggers'], null, branch), false);
    assert.equal(matches(['triggers'], null, { ...branch, trigger: true }), true);
  });

  test('a plain pattern is an exact comparison with the ref name', () => {
    assert.equal(matches(['master'], null, branch), true);
    assert.equal(matches(['maste'], null, branch), false);
    assert.equal(matches(null, ['master'], branch), false);
  });

  test('a /regexp/ matches anywhere in the ref; ^ and $ are line anchors', () => {
    assert.equal(matches(['/^deploy-.*$/'], null, { ...branch, ref: 'deploy-1' }), true);
    assert.equal(matches(['/ploy/'], null, { ...branch, ref: 'deploy-1' }), true);
    assert.equal(matches(['/^ploy/'], null, { ...branch, ref: 'deploy-1' }), false);
    assert.equal(matches(['/^stable$/'], null, { ...branch, ref: 'x\nstable' }), true);
    assert.equal(matches(['/\\Astable/'], null, { ...branch, ref: 'x\nstable' }), false);
    assert.equal(matches(['/stable\\z/'], null, { ...branch, ref: 'stable-1' }), false);
    assert.equal(matches(['/^v\\h+$/'], null, { ...branch, ref: 'vbeef' }), true);
    assert.equal(matches(['/(?i)^release/'], null, { ...branch, ref: 'RELEASE-1' }), true);
    assert.equal(matches(['/^release/'], null, { ...branch, ref: 'RELEASE-1' }), false);
  });

  test('pattern@namespace/path applies only in that project', () => {
    assert.equal(matches(['master@group/project'], null, { ...branch, projectPath: 'group/project' }), true);
    assert.equal(matches(['master@group/other'], null, { ...branch, projectPath: 'group/project' }), false);
    assert.equal(matches(['branches@group/project'], null, branch), false);
  });

  test('only and except together: included when only matches and except does not', () => {
    assert.equal(matches(['branches'], ['master'], branch), false);
    assert.equal(matches(['branches'], ['stable'], branch), true);
  });
});
