# SPDX-License-Identifier: GPL-2.0
"""A scratch git repository for the host tests of the records
(test_report.py, ../test_record.py): one commit, "the subject"."""
import os
import subprocess
import tempfile


def git(top, *args):
    subprocess.run(['git', '-C', top] + list(args), check=True, capture_output=True,
                   env=dict(os.environ, GIT_AUTHOR_NAME='t', GIT_AUTHOR_EMAIL='t@t',
                            GIT_COMMITTER_NAME='t', GIT_COMMITTER_EMAIL='t@t'))


def scratch_repo(dirty=False):
    """A new repository with one committed file; dirty: the file changed
    since, uncommitted.  Returns its path."""
    top = tempfile.mkdtemp()
    git(top, 'init', '-q')
    with open(os.path.join(top, 'f'), 'w') as f:
        f.write('x\n')
    git(top, 'add', 'f')
    git(top, 'commit', '-q', '-m', 'the subject')
    if dirty:
        with open(os.path.join(top, 'f'), 'w') as f:
            f.write('changed\n')
    return top
