;;; Emacs 29+ (eglot built in; on Emacs 28 install the eglot package): add to init.el.
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((text-mode markdown-mode latex-mode rst-mode org-mode html-mode)
                 . ("nokta-lsp" "--stdio"))))

;; Settings, sent as workspace/configuration (a .dir-locals.el can set them per project).
(setq-default eglot-workspace-configuration
              '(:nokta (:severity "information" :ignoreWords [])))

;; Start nokta in the prose modes.
(dolist (hook '(text-mode-hook markdown-mode-hook latex-mode-hook rst-mode-hook org-mode-hook))
  (add-hook hook #'eglot-ensure))
